//! The `template` tool: compose text from earlier steps' outputs.

use crate::args::NO_API_CALLS;
use serde_json::json;
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{Category, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec};

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
            let text = vai_workflow::value::to_text(Some(value));
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
}
