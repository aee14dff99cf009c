//! The engine's side of [`Calls`]: what a step's tool may call while it runs (an `agent`'s
//! `tools`, as the plan recorded them). A registry tool runs as the step's own calls do — the
//! run's limits and defaults, a fresh step budget, canned outputs by tool — with no events of its
//! own; a workflow runs as a child run of the step (`child_run`), unrecorded and unseen, its undo
//! kept with the step's. A name the step does not list is refused.

use super::child::ended_badly;
use super::step::StepTask;
use crate::compile::{Callee, Callees};
use crate::events::RunStatus;
use crate::scope::{Context, Scope};
use crate::tool::{Callable, Calls, ToolCall, ToolError, ToolFuture, ToolOutput, Usage};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// What the step `task` runs may call.
pub(super) struct StepCalls<'a> {
    task: &'a StepTask,
    callees: &'a Callees,
}

impl StepTask {
    /// What this step's tool may call, when the step lists anything (an agent's `tools`).
    pub(super) fn calls(&self) -> Option<StepCalls<'_>> {
        let callees = self.plan.callees.get(&self.index)?;
        Some(StepCalls {
            task: self,
            callees,
        })
    }
}

impl Calls for StepCalls<'_> {
    fn callable(&self) -> Vec<Callable<'_>> {
        self.callees
            .0
            .iter()
            .filter_map(|callee| match callee {
                Callee::Tool(name) => self.task.registry.spec(name).map(Callable::Tool),
                Callee::Workflow { name, plan } => Some(Callable::Workflow {
                    name,
                    workflow: &plan.workflow,
                }),
            })
            .collect()
    }

    fn call<'a>(&'a self, name: &'a str, inputs: Map<String, Value>) -> ToolFuture<'a> {
        Box::pin(async move {
            let listed = self.callees.0.iter().find(|callee| match callee {
                Callee::Tool(tool) => tool == name,
                Callee::Workflow { name: listed, .. } => listed == name,
            });
            match listed {
                Some(Callee::Tool(_)) => self.tool(name, inputs).await,
                Some(Callee::Workflow { plan, .. }) => {
                    self.workflow(name, plan.clone(), inputs).await
                }
                None => Err(ToolError::Failed(format!(
                    "\"{name}\" is not one of the tools step \"{}\" offers",
                    self.task.step().id
                ))),
            }
        })
    }
}

impl StepCalls<'_> {
    async fn tool(&self, name: &str, inputs: Map<String, Value>) -> Result<ToolOutput, ToolError> {
        let task = self.task;
        let Some(tool) = task.registry.tool(name) else {
            return Err(ToolError::Failed(format!(
                "tool \"{name}\" is not available in this build"
            )));
        };
        if let Some(mock) = task.mocks.by_tool.get(name) {
            return Ok(ToolOutput {
                backend: Some("mock".into()),
                ..ToolOutput::new(mock.clone())
            });
        }
        static NULL: Value = Value::Null;
        let defaults = task.scope.get("defaults").unwrap_or(&NULL);
        // The called tool reads only its inputs and the run's defaults, never other steps.
        let scope = Context::new();
        let deferred = HashMap::new();
        let call = ToolCall {
            step_id: &task.step().id,
            inputs: inputs.into(),
            defaults,
            deferred: &deferred,
            scope: &scope,
            limits: task.limits,
            budget: task.limits.step_budget(),
            sink: None,
            calls: None,
        };
        tool.run(call).await
    }

    async fn workflow(
        &self,
        name: &str,
        plan: std::sync::Arc<crate::compile::Plan>,
        inputs: Map<String, Value>,
    ) -> Result<ToolOutput, ToolError> {
        let result = self
            .task
            .child_run(plan, name, inputs, None)
            .await
            .map_err(ToolError::Failed)?;
        match result.status {
            RunStatus::Completed => {
                let mut side = self.task.side.lock().unwrap_or_else(|e| e.into_inner());
                side.undo.extend(result.undo);
                Ok(ToolOutput {
                    usage: (result.usage != Usage::default()).then_some(result.usage),
                    ..ToolOutput::new(result.output.unwrap_or(Value::Null))
                })
            }
            RunStatus::Waiting => Err(ToolError::Failed(format!(
                "workflow \"{name}\" waits for a person, and a call a step's tool makes cannot \
                 wait"
            ))),
            RunStatus::Failed | RunStatus::Cancelled => {
                Err(ToolError::Failed(ended_badly(name, &result)))
            }
        }
    }
}
