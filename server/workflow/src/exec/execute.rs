//! What a step's task runs: a mock's canned output, a `loop`, a `forEach` (both in `iterate`),
//! or a single tool call.

use super::resolve::resolve_inputs;
use super::step::{Outcome, StepTask, Success};
use crate::compile::StepKind;
use crate::inputs::JoinGuard;
use crate::tool::{Tool, ToolOutput};
use std::sync::Arc;

impl StepTask {
    pub(crate) async fn execute(&self) -> Outcome {
        let step = self.step();
        if let Some(mock) = self.mocks.for_step(&step.id, &step.tool) {
            // Inputs are still resolved, so a mocked run exercises the templates too.
            let guard = JoinGuard::new(&self.limits);
            return match resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard) {
                Ok(inputs) => {
                    let recorded = self.record(&inputs);
                    let out = ToolOutput {
                        backend: Some("mock".into()),
                        ..ToolOutput::new(mock.clone())
                    };
                    let result = Success::checked(out, &self.limits);
                    (result, recorded)
                }
                Err(e) => (Err(e), None),
            };
        }
        if let StepKind::Loop { var, tool, inputs } = &step.kind {
            return self.run_loop(var, tool, inputs).await;
        }
        let callee = if let StepKind::Workflow { .. } = &step.kind {
            Callee::Child
        } else {
            match self.tool(&step.tool) {
                Ok(tool) => Callee::Tool(tool),
                Err(e) => return (Err(e), None),
            }
        };
        match &step.for_each {
            None => {
                let guard = JoinGuard::new(&self.limits);
                let inputs = match resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard) {
                    Ok(inputs) => inputs,
                    Err(e) => return (Err(e), None),
                };
                let recorded = self.record(&inputs);
                let result = match callee {
                    Callee::Tool(tool) => {
                        self.call_guarded(tool, inputs, &self.scope, &guard).await
                    }
                    Callee::Child => self.run_child(&inputs, None).await,
                }
                .and_then(|o| Success::checked(o, &self.limits));
                (result, recorded)
            }
            Some(for_each) => self.run_for_each(callee, for_each).await,
        }
    }
}

/// What a step calls: its tool, or (a `workflow` step) its child workflow.
#[derive(Clone, Copy)]
pub(super) enum Callee<'a> {
    Tool(&'a Arc<dyn Tool>),
    Child,
}
