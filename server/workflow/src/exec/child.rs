//! A `workflow` step's child run: the child's plan (loaded when the workflow was checked) runs
//! on the step's `inputs.inputs`, sharing the run's budget, cancellation and journal, one level
//! deeper; its events reach the run's sink wrapped as `child` events. A completed child hands
//! back its output and what would undo it; a child that ended badly undid itself already; a
//! child that waits for a person makes the step (and the run) wait. An agent's workflow calls
//! run through the same `child_run`, unrecorded (`calls`).

use super::durable::split_segment;
use super::frame::Frame;
use super::inputs::prepare_inputs;
use super::options::{Mocks, RunOptions};
use super::record::RunResult;
use super::record::Waiting;
use super::scheduler::Scheduler;
use super::step::StepTask;
use crate::compile::Plan;
use crate::control::MAX_WORKFLOW_DEPTH;
use crate::events::{EventSink, NoEvents, RunEvent, RunStatus};
use crate::inputs::Inputs;
use crate::tool::{ToolOutput, Usage};
use serde_json::{Map, Value};
use std::sync::Arc;

/// Reports a child run's events to the parent's sink, wrapped.
struct ChildSink {
    parent: Arc<dyn EventSink>,
    segment: String,
}

impl EventSink for ChildSink {
    fn emit(&self, event: RunEvent) {
        let (step_id, item) = split_segment(&self.segment);
        self.parent.emit(RunEvent::Child {
            step_id: step_id.to_string(),
            item,
            event: Box::new(event),
        });
    }
}

impl StepTask {
    /// Run the step's child workflow on `inputs` (the step's resolved inputs); `item` for a
    /// `forEach` step's item. `Err` is the step's error.
    pub(super) async fn run_child(
        &self,
        inputs: &Inputs<'_>,
        item: Option<usize>,
    ) -> Result<ToolOutput, String> {
        let step = self.step();
        let name = inputs
            .get("workflow")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let Some(plan) = self.plan.children.get(&self.index).cloned() else {
            return Err(format!(
                "workflow \"{name}\" was not loaded with this workflow"
            ));
        };
        let given = match inputs.get("inputs") {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        let segment = match item {
            Some(i) => format!("{}[{i}]", step.id),
            None => step.id.clone(),
        };
        let result = self
            .child_run(plan, &name, given, Some(segment.clone()))
            .await?;
        let mut side = self.side.lock().unwrap_or_else(|e| e.into_inner());
        match result.status {
            RunStatus::Completed => {
                side.undo.extend(result.undo);
                Ok(ToolOutput {
                    usage: (result.usage != Usage::default()).then_some(result.usage),
                    ..ToolOutput::new(result.output.unwrap_or(Value::Null))
                })
            }
            RunStatus::Waiting => {
                if let Some(w) = result.waiting {
                    let mut within = vec![segment];
                    within.extend(w.within);
                    side.waiting = Some(Waiting { within, ..w });
                }
                Err(format!("workflow \"{name}\" waits for a person"))
            }
            RunStatus::Failed | RunStatus::Cancelled => Err(ended_badly(&name, &result)),
        }
    }

    /// Run `plan` (the workflow `name`) on `given` as a child of this step: one level deeper,
    /// sharing the run's budget and cancellation, with canned outputs by tool. At `segment`
    /// (the step's id, with `[i]` for an item) it is journaled, replayed and its events reach
    /// the run's sink; without one (a call an agent makes) it runs unrecorded and unseen.
    pub(super) async fn child_run(
        &self,
        plan: Arc<Plan>,
        name: &str,
        given: Map<String, Value>,
        segment: Option<String>,
    ) -> Result<RunResult, String> {
        if self.frame.depth + 1 > MAX_WORKFLOW_DEPTH {
            return Err(format!(
                "workflow \"{name}\": workflows call workflows more than {MAX_WORKFLOW_DEPTH} deep"
            ));
        }
        let prepared = prepare_inputs(&plan.workflow, &given).map_err(|errors| {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            format!("workflow \"{name}\": {}", list.join("; "))
        })?;
        let context = super::frame::run_context(&plan, prepared, &self.frame.defaults_override);
        let at = segment.as_ref();
        let frame = Frame {
            cancel: self.frame.cancel.child_token(),
            journal: at.and_then(|s| self.frame.journal.as_ref().map(|j| j.child(s.clone()))),
            replay: at.and_then(|s| self.frame.replay.as_ref().and_then(|r| r.child(s))),
            depth: self.frame.depth + 1,
            run_budget: self.frame.run_budget.clone(),
            defaults_override: self.frame.defaults_override.clone(),
        };
        // Canned outputs by tool reach into the child; those by step id name this run's steps.
        let options = RunOptions {
            mocks: Mocks {
                by_step: Default::default(),
                by_tool: self.mocks.by_tool.clone(),
            },
            limits: self.limits,
            ..RunOptions::default()
        };
        let sink: Arc<dyn EventSink> = match segment {
            Some(segment) => Arc::new(ChildSink {
                parent: self.sink.clone(),
                segment,
            }),
            None => Arc::new(NoEvents),
        };
        let scheduler = Scheduler::new(
            plan,
            self.registry.clone(),
            options,
            sink,
            context,
            Arc::new(frame),
        );
        Ok(scheduler.run_boxed().await)
    }
}

/// Why the child run of workflow `name` that failed or was cancelled did not complete.
pub(super) fn ended_badly(name: &str, result: &RunResult) -> String {
    format!(
        "workflow \"{name}\" {}: {}",
        if result.status == RunStatus::Failed {
            "failed"
        } else {
            "was cancelled"
        },
        result.error.as_deref().unwrap_or("no reason given")
    )
}
