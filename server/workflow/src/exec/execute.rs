//! What a step's task runs: a mock's canned output, a `loop`, a `forEach` (both in `iterate`),
//! or a single tool call.

use super::resolve::resolve_inputs;
use super::step::{Outcome, StepTask, Success};
use crate::compile::StepKind;
use crate::inputs::JoinGuard;
use crate::tool::ToolOutput;

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
        let tool = match self.tool(&step.tool) {
            Ok(tool) => tool,
            Err(e) => return (Err(e), None),
        };
        match &step.for_each {
            None => {
                let guard = JoinGuard::new(&self.limits);
                let inputs = match resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard) {
                    Ok(inputs) => inputs,
                    Err(e) => return (Err(e), None),
                };
                let recorded = self.record(&inputs);
                let result = self
                    .call_guarded(tool, inputs, &self.scope, &guard)
                    .await
                    .and_then(|o| Success::checked(o, &self.limits));
                (result, recorded)
            }
            Some(for_each) => self.run_for_each(tool, for_each).await,
        }
    }
}
