//! A `workflow` step's child run: the child's plan (loaded when the workflow was checked) runs
//! on the step's `inputs.inputs`, sharing the run's budget, cancellation and journal, one level
//! deeper; its events reach the run's sink wrapped as `child` events. A completed child hands
//! back its output and what would undo it; a child that ended badly undid itself already; a
//! child that waits for a person makes the step (and the run) wait.

use super::durable::split_segment;
use super::frame::Frame;
use super::inputs::prepare_inputs;
use super::options::{Mocks, RunOptions};
use super::record::Waiting;
use super::scheduler::Scheduler;
use super::step::StepTask;
use crate::control::MAX_WORKFLOW_DEPTH;
use crate::events::{EventSink, RunEvent, RunStatus};
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
        if self.frame.depth + 1 > MAX_WORKFLOW_DEPTH {
            return Err(format!(
                "workflow \"{name}\": workflows call workflows more than {MAX_WORKFLOW_DEPTH} deep"
            ));
        }
        let given = match inputs.get("inputs") {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        let prepared = prepare_inputs(&plan.workflow, &given).map_err(|errors| {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            format!("workflow \"{name}\": {}", list.join("; "))
        })?;
        let segment = match item {
            Some(i) => format!("{}[{i}]", step.id),
            None => step.id.clone(),
        };
        let context = super::frame::run_context(&plan, prepared, &self.frame.defaults_override);
        let frame = Frame {
            cancel: self.frame.cancel.child_token(),
            journal: self
                .frame
                .journal
                .as_ref()
                .map(|j| j.child(segment.clone())),
            replay: self.frame.replay.as_ref().and_then(|r| r.child(&segment)),
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
        let sink: Arc<dyn EventSink> = Arc::new(ChildSink {
            parent: self.sink.clone(),
            segment: segment.clone(),
        });
        let scheduler = Scheduler::new(
            plan,
            self.registry.clone(),
            options,
            sink,
            context,
            Arc::new(frame),
        );
        let result = scheduler.run_boxed().await;
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
            RunStatus::Failed | RunStatus::Cancelled => Err(format!(
                "workflow \"{name}\" {}: {}",
                if result.status == RunStatus::Failed {
                    "failed"
                } else {
                    "was cancelled"
                },
                result.error.as_deref().unwrap_or("no reason given")
            )),
        }
    }
}
