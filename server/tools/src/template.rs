//! The `template` tool: compose text from earlier steps' outputs.

use crate::args::NO_API_CALLS;
use serde_json::json;
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{
    Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec,
};

const NAME: &str = "template";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Renders its `text` input (already resolved by the engine) as text.
pub struct TemplateTool;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Template",
        category: Category::ControlFlow,
        icon: "TextSnippet",
        description: "Compose a piece of text from inputs and earlier steps' outputs",
        help: "Resolves the `{{ }}` templates in `text` and returns the result with its length in characters. Use it to build prompts, messages or summaries from earlier steps, e.g. \"Found {{ search.output.resultCount }} results for {{ inputs.query }}\". When `text` is a single template that yields an array or object, the output is its JSON text (the reference printed \"[object Object]\"). An empty string is allowed.",
        input_schema: InputSchema::new().required_input(
            "text",
            PropertySchema::of(JsonType::String)
                .describe("Text with {{ }} templates to resolve")
                .format(WidgetFormat::Multiline),
        ),
        outputs: &[
            ("text", "the resolved text"),
            ("charCount", "its length in characters"),
        ],
        deferred: &[],
        main_input: Some("text"),
        api_calls: NO_API_CALLS,
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for TemplateTool {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let value = call
                .inputs
                .get("text")
                .ok_or_else(|| ToolError::required(NAME, "text"))?;
            // An array or object is written out as JSON: within the output budget, so a large
            // value is refused before its text is built.
            let mut text = String::new();
            call.budget()
                .push_text(&mut text, Some(value))
                .map_err(|l| ToolError::limit("output.text", l))?;
            let count = text.chars().count();
            Ok(ToolOutput::new(json!({"text": text, "charCount": count})))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use vai_workflow::Context;

    async fn run(inputs: Value) -> Result<Value, ToolError> {
        let scope = Context::new();
        let defaults = json!({});
        let call =
            ToolCall::standalone("t", inputs.as_object().unwrap().clone(), &defaults, &scope);
        TemplateTool.run(call).await.map(|o| o.output)
    }

    #[tokio::test]
    async fn counts_characters_not_bytes() {
        let out = run(json!({"text": "héllo wörld ✓"})).await.unwrap();
        assert_eq!(out, json!({"text": "héllo wörld ✓", "charCount": 13}));
    }

    #[tokio::test]
    async fn non_strings_render_as_json_text() {
        assert_eq!(
            run(json!({"text": [1, "a"]})).await.unwrap()["text"],
            "[1,\"a\"]"
        );
        assert_eq!(
            run(json!({"text": {"a": 1}})).await.unwrap()["text"],
            "{\"a\":1}"
        );
        assert_eq!(run(json!({"text": 3.0})).await.unwrap()["text"], "3");
        assert_eq!(run(json!({"text": null})).await.unwrap()["text"], "null");
    }

    #[tokio::test]
    async fn empty_text_is_allowed_and_missing_text_is_an_error() {
        assert_eq!(
            run(json!({"text": ""})).await.unwrap(),
            json!({"text": "", "charCount": 0})
        );
        let err = run(json!({})).await.unwrap_err();
        assert!(err.to_string().contains("\"text\" is required"), "{err}");
    }

    #[tokio::test]
    async fn json_text_past_the_output_budget_is_a_limit() {
        let scope = Context::new();
        let defaults = json!({});
        let inputs = json!({"text": vec!["0123456789"; 200]});
        let limits = vai_workflow::Limits {
            step_output_bytes: 1000,
            ..vai_workflow::Limits::DEFAULT
        };
        let call =
            ToolCall::standalone("t", inputs.as_object().unwrap().clone(), &defaults, &scope)
                .with_limits(limits);
        let err = TemplateTool.run(call).await.unwrap_err();
        assert!(matches!(err, ToolError::Limit(_)), "{err:?}");
        assert!(err.to_string().starts_with("output.text: "), "{err}");
    }

    /// Run one `template` step through the engine.
    async fn run_in_workflow(text: Value, x: &str) -> vai_workflow::RunResult {
        let mut registry = vai_workflow::Registry::new();
        registry.register(std::sync::Arc::new(TemplateTool));
        let wf = json!({"name": "t", "inputs": {"x": {"type": "string"}},
                        "steps": [{"id": "render", "tool": "template", "inputs": {"text": text}}],
                        "output": "{{ render.output.charCount }}"});
        let plan = vai_workflow::compile(&wf, &registry, vai_workflow::Mode::Strict)
            .plan
            .unwrap();
        let options = vai_workflow::RunOptions {
            inputs: json!({"x": x}).as_object().unwrap().clone(),
            ..Default::default()
        };
        let sink = std::sync::Arc::new(vai_workflow::events::NoEvents);
        vai_workflow::run(plan, std::sync::Arc::new(registry), options, sink)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_text_repeating_a_large_input_fails_cleanly_instead_of_allocating_gigabytes() {
        // 50,000 × 40 KB would be 2 GB; the engine stops resolving at the 16 MiB value limit.
        let big = "y".repeat(40_000);
        let result = run_in_workflow(json!("{{inputs.x}}".repeat(50_000)), &big).await;
        assert_eq!(result.status, vai_workflow::RunStatus::Failed);
        let error = result.steps[0].error.as_deref().unwrap();
        assert_eq!(
            error,
            "inputs.text: the value would be larger than 16 MiB (limits.valueBytes in .vai.json) [LIMIT_EXCEEDED]"
        );
        // A reasonable repetition renders.
        let result = run_in_workflow(json!("{{inputs.x}}".repeat(100)), &big).await;
        assert_eq!(result.output, Some(json!(4_000_000)));
    }
}
