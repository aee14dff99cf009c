//! The bounds on a step-through run's settings, checked before the run starts and at each
//! resume that changes the breakpoints: a pace of at most [`MAX_PACE_MS`], and breakpoints that
//! name steps of the workflow (no more of them than it has steps).

use vai_workflow::value::truncate_chars;
use vai_workflow::{Plan, StepThrough};

/// The longest pace: a step shown running for ten seconds is narration enough.
pub const MAX_PACE_MS: u64 = 10_000;

/// Longest step id quoted back in a message.
const QUOTE_LIMIT: usize = 64;

/// `settings` within bounds, its breakpoints sorted without repeats; or what is wrong, naming
/// the field (`stepThrough.paceMs`, `stepThrough.breakpoints`).
pub fn check(plan: &Plan, settings: StepThrough) -> Result<StepThrough, String> {
    if settings.pace_ms > MAX_PACE_MS {
        return Err(format!(
            "stepThrough.paceMs is {}; the most is {MAX_PACE_MS}",
            settings.pace_ms
        ));
    }
    let breakpoints = breakpoints(
        |id| plan.step_index(id).is_some(),
        plan.steps.len(),
        settings.breakpoints,
        "stepThrough.breakpoints",
    )?;
    Ok(StepThrough {
        breakpoints,
        ..settings
    })
}

/// `ids` as breakpoints of a workflow of `steps` steps, each of which `has_step`: sorted, without
/// repeats; or what is wrong, naming `field`.
pub fn breakpoints(
    has_step: impl Fn(&str) -> bool,
    steps: usize,
    mut ids: Vec<String>,
    field: &str,
) -> Result<Vec<String>, String> {
    if ids.len() > steps {
        return Err(format!(
            "{field} has {} entries; the workflow has {steps} steps",
            ids.len()
        ));
    }
    if let Some(unknown) = ids.iter().find(|id| !has_step(id)) {
        return Err(format!(
            "{field}: the workflow has no step \"{}\"",
            truncate_chars(unknown, QUOTE_LIMIT)
        ));
    }
    ids.sort();
    ids.dedup();
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;
    use vai_workflow::{Mode, Registry, Tool, ToolCall, ToolFuture, ToolOutput, ToolSpec, compile};

    struct Echo(ToolSpec);

    impl Tool for Echo {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
            Box::pin(async move { Ok(ToolOutput::new(json!(call.inputs.to_map()))) })
        }
    }

    fn plan() -> Arc<Plan> {
        let mut registry = Registry::new();
        registry.register(Arc::new(Echo(ToolSpec {
            name: "echo",
            label: "echo",
            category: vai_workflow::Category::Utility,
            icon: "Build",
            description: "echo",
            help: "echo",
            input_schema: vai_workflow::InputSchema::new(),
            outputs: &[],
            deferred: &[],
            main_input: None,
            api_calls: vai_workflow::ApiCalls::default(),
            effects: vai_workflow::Effects::PURE,
            optional_calls: &[],
            uses_store: false,
        })));
        let wf = json!({"name": "t", "steps": [
            {"id": "a", "tool": "echo", "inputs": {}},
            {"id": "b", "tool": "echo", "inputs": {}}
        ]});
        compile(&wf, &registry, Mode::Strict).plan.expect("a plan")
    }

    fn settings(breakpoints: &[&str], pace_ms: u64) -> StepThrough {
        StepThrough {
            pause_each: false,
            breakpoints: breakpoints.iter().map(|b| b.to_string()).collect(),
            pace_ms,
        }
    }

    #[test]
    fn breakpoints_are_kept_sorted_without_repeats() {
        let checked = check(&plan(), settings(&["b", "b"], 10_000)).unwrap();
        assert_eq!(checked.breakpoints, ["b"]);
        let checked = check(&plan(), settings(&["b", "a"], 0)).unwrap();
        assert_eq!(checked.breakpoints, ["a", "b"]);
    }

    #[test]
    fn what_is_out_of_bounds_is_named() {
        let plan = plan();
        assert_eq!(
            check(&plan, settings(&["a", "nope"], 0)).unwrap_err(),
            "stepThrough.breakpoints: the workflow has no step \"nope\""
        );
        assert_eq!(
            check(&plan, settings(&["a", "a", "a"], 0)).unwrap_err(),
            "stepThrough.breakpoints has 3 entries; the workflow has 2 steps"
        );
        assert_eq!(
            check(&plan, settings(&[], 10_001)).unwrap_err(),
            "stepThrough.paceMs is 10001; the most is 10000"
        );
    }
}
