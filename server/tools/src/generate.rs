//! The `generate` tool: ask the configured LLM, optionally grounded on retrieved context.

use crate::args;
use crate::retrieval::{object, provider_error};
use crate::served::{Served, USAGE_OUTPUTS};
use serde_json::{Map, Value, json};
use std::sync::{Arc, LazyLock};
use vai_providers::grounded::SourceText;
use vai_providers::llm::StreamEvent;
use vai_providers::structured::{self, Schema};
use vai_providers::{CompletionRequest, Message, Providers, TokenUsage};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{
    ApiCalls, Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec, has_template,
};

const NAME: &str = "generate";

/// Largest `maxTokens` accepted.
const MAX_TOKENS: u64 = 200_000;

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Sends a prompt (plus rendered context) to the LLM.
pub struct Generate {
    providers: Arc<Providers>,
}

impl Generate {
    pub fn new(providers: Arc<Providers>) -> Self {
        Generate { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Generate",
        category: Category::Generation,
        icon: "AutoAwesome",
        description: "Generate text with the configured LLM, optionally grounded on retrieved documents",
        help: "Sends `prompt` to the configured LLM (VAI_LLM_PROVIDER: anthropic, openai or ollama) with `systemPrompt` as its system instructions. `context` is appended after the prompt under \"Context:\": an array of results (or an object with a `results` array, such as a query step's output) becomes numbered sources \"[1] (source: guide.md) text…\" so the answer can cite them; a string is appended as it is. `model`, `temperature` and `maxTokens` are passed to the provider (the reference ignored them). The answer streams into the step while it is written. With context, the small offline model (SmolLM2-135M) does not write: it answers with the sentences of the context that answer the prompt's question, each cited [n], or says the context does not answer (`method`: extractive or declined) — a 135M model invents when it writes. With `responseFormat` (a JSON Schema: objects, arrays, strings, integers and numbers with their bounds, booleans, enums) the answer must be one JSON value that follows it, output as `parsed`; the local model is held to it while it writes (constrained decoding: only tokens that keep the answer valid are chosen), other providers' answers are checked, and one that does not follow it fails the step saying where. Fails with a message saying what to configure when no LLM is set up.",
        input_schema: InputSchema::new()
            .required_input(
                "prompt",
                PropertySchema::of(JsonType::String)
                    .describe("The instruction or question")
                    .format(WidgetFormat::Multiline),
            )
            .input(
                "context",
                PropertySchema::one_of(&[JsonType::Array, JsonType::Object, JsonType::String])
                    .describe(
                        "Documents to ground the answer, e.g. {{ query.output.results }}, or text",
                    ),
            )
            .input(
                "systemPrompt",
                PropertySchema::of(JsonType::String)
                    .describe("System instructions for the model")
                    .format(WidgetFormat::Multiline),
            )
            .input("model", model_input())
            .input(
                "temperature",
                PropertySchema::of(JsonType::Number)
                    .min(0u64)
                    .max(2u64)
                    .describe("Sampling temperature"),
            )
            .input(
                "maxTokens",
                PropertySchema::of(JsonType::Integer)
                    .min(1u64)
                    .max(MAX_TOKENS)
                    .describe("Most tokens to generate"),
            )
            .input(
                "responseFormat",
                PropertySchema::of(JsonType::Object).describe(
                    "A JSON Schema the answer must follow; its value is output as `parsed`",
                ),
            ),
        outputs: &[
            ("text", "the generated text"),
            ("model", "the model that answered"),
            (
                "provider",
                "the LLM provider (anthropic, openai, ollama, …)",
            ),
            (
                "method",
                "how the answer was made: generated (the model wrote it), extractive (the small local model quoted the sentences of the context that answer, each cited [n]) or declined (the context does not answer)",
            ),
            (
                "citations",
                "for an extractive answer: [{index, source, passage}], each quoted passage with its citation number and source",
            ),
            (
                "parsed",
                "with responseFormat: the answer's JSON value, checked against the schema",
            ),
            USAGE_OUTPUTS[0],
            USAGE_OUTPUTS[1],
        ],
        deferred: &[],
        main_input: Some("prompt"),
        api_calls: ApiCalls {
            embed: 0,
            rerank: 0,
            vector_search: 0,
            llm: 1,
            http: 0,
        },
        // Asks the LLM; answers vary between calls, but nothing anywhere changes.
        effects: Effects::READS_REMOTE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Generate {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn check_inputs(&self, inputs: &Map<String, Value>) -> Vec<(String, String)> {
        response_format_problems(inputs)
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let prompt = args::required_str(NAME, &call, "prompt")?;
            let temperature = args::opt_number(&SPEC, &call, "temperature")?;
            let max_tokens = args::opt_count(&SPEC, &call, "maxTokens")?.map(|n| n as u32);
            let llm = self
                .providers
                .llm(NAME)
                .map_err(|e| provider_error(NAME, e))?;
            let context = call.input("context");
            let format =
                args::opt_object(NAME, &call, "responseFormat")?.map(|o| Value::Object(o.clone()));
            let schema = match &format {
                Some(format) => Some(
                    Schema::compile(format)
                        .map_err(|e| ToolError::invalid(NAME, e.field, e.message))?,
                ),
                None => None,
            };
            let mut served = Served::new(&self.providers.pricing);

            let documents = context.map(documents_of).unwrap_or_default();
            let sources: Vec<SourceText<'_>> = documents
                .iter()
                .enumerate()
                .map(|(i, (title, text))| SourceText {
                    index: i as u32 + 1,
                    title,
                    text,
                })
                .collect();
            // An answer in a given shape is written, never quoted.
            if !sources.is_empty()
                && schema.is_none()
                && let Some(grounded) = llm.ground(question_of(prompt), &sources).await
            {
                let grounded = grounded.map_err(|e| provider_error(NAME, e))?;
                call.stream_text(&grounded.text);
                served.llm(llm.name(), llm.default_model(), TokenUsage::default());
                let citations = grounded
                    .quotes
                    .iter()
                    .map(|q| {
                        json!({
                            "index": q.index,
                            "source": sources[q.index as usize - 1].title,
                            "passage": q.passage,
                        })
                    })
                    .collect();
                return Ok(served.model_output(object([
                    ("text", Value::String(grounded.text)),
                    ("model", Value::String(llm.default_model().to_string())),
                    ("provider", Value::String(llm.name().to_string())),
                    ("method", Value::String(grounded.method.as_str().into())),
                    ("citations", Value::Array(citations)),
                ])));
            }

            let user = match context.and_then(render_context) {
                Some(context) => format!("{prompt}\n\nContext:\n{context}"),
                None => prompt.to_string(),
            };
            let mut system = args::opt_string(&call, "systemPrompt");
            if let Some(format) = &format {
                let ask = structured::instruction(format);
                system = Some(match system {
                    Some(s) => format!("{s}\n\n{ask}"),
                    None => ask,
                });
            }
            let request = CompletionRequest {
                system,
                messages: vec![Message::user(user)],
                model: args::opt_string(&call, "model"),
                temperature,
                max_tokens,
                tools: Vec::new(),
                response_format: format.clone(),
            };
            let completion = llm
                .stream(request, &mut |event| {
                    if let StreamEvent::Text(delta) = event {
                        call.stream_text(&delta);
                    }
                })
                .await
                .map_err(|e| provider_error(NAME, e))?;
            served.llm(llm.name(), &completion.model, completion.usage);
            let parsed = match &schema {
                Some(schema) => Some(schema.validate(&completion.text).map_err(|e| {
                    ToolError::Failed(format!(
                        "{NAME}: the answer does not follow responseFormat: {e}"
                    ))
                })?),
                None => None,
            };
            let mut output = object([
                ("text", Value::String(completion.text)),
                ("model", Value::String(completion.model)),
                ("provider", Value::String(llm.name().to_string())),
                ("method", Value::String("generated".into())),
            ]);
            if let (Some(parsed), Value::Object(fields)) = (parsed, &mut output) {
                fields.insert("parsed".into(), parsed);
            }
            Ok(served.model_output(output))
        })
    }
}

/// What is wrong with a literal `responseFormat` schema, as `(field, message)` (the model
/// steps' `check_inputs`).
pub(crate) fn response_format_problems(inputs: &Map<String, Value>) -> Vec<(String, String)> {
    match inputs.get("responseFormat") {
        Some(format @ Value::Object(_)) if !has_template(format) => Schema::compile(format)
            .err()
            .map(|e| (e.field, e.message))
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// The `model` input of the tools that ask the LLM.
pub(crate) fn model_input() -> PropertySchema {
    PropertySchema::of(JsonType::String)
        .describe("LLM model; the provider's configured model (VAI_LLM_MODEL) when omitted")
}

/// The question a prompt asks, for choosing the sentences that answer it: the text after its
/// last "Question:" (to the end of that line) when it has one, else the whole prompt.
fn question_of(prompt: &str) -> &str {
    let lower = prompt.to_lowercase();
    match lower.rfind("question:") {
        // Lower-casing keeps ASCII offsets; a prompt whose case mapping changes lengths before
        // the marker is taken whole.
        Some(at) if lower.len() == prompt.len() => {
            let rest = prompt[at + "question:".len()..].trim_start();
            let line = rest.lines().next().unwrap_or_default().trim();
            if line.is_empty() { prompt } else { line }
        }
        _ => prompt,
    }
}

/// The documents of a context, as (title, text): each item of an array (or of an object's
/// `results`), or a string as one document. Null items, as left by skipped steps, are dropped.
fn documents_of(context: &Value) -> Vec<(String, String)> {
    let items = match context {
        Value::Array(items) => items,
        Value::Object(o) => match o.get("results") {
            Some(Value::Array(items)) => items,
            _ => return Vec::new(),
        },
        Value::String(s) if !s.trim().is_empty() => {
            return vec![("context".to_string(), s.clone())];
        }
        _ => return Vec::new(),
    };
    items
        .iter()
        .filter(|item| !item.is_null())
        .enumerate()
        .map(|(i, item)| {
            let title = item
                .get("source")
                .or_else(|| item.get("title"))
                .filter(|s| !s.is_null())
                .map(|s| vai_workflow::value::to_text(Some(s)))
                .unwrap_or_else(|| format!("source {}", i + 1));
            (title, args::document_text(item))
        })
        .collect()
}

/// Context as prompt text; `None` when there is nothing to add.
///
/// Arrays (and objects with a `results` array) become numbered sources separated by blank
/// lines: `[1] (source: a.md) text`. Null items, as left by skipped steps, are dropped.
pub(crate) fn render_context(context: &Value) -> Option<String> {
    let items = match context {
        Value::Array(items) => items,
        Value::Object(o) => match o.get("results") {
            Some(Value::Array(items)) => items,
            _ => return Some(context.to_string()),
        },
        Value::String(s) if s.trim().is_empty() => return None,
        Value::String(s) => return Some(s.clone()),
        Value::Null => return None,
        other => return Some(vai_workflow::value::to_text(Some(other))),
    };
    let sources: Vec<String> = items
        .iter()
        .filter(|item| !item.is_null())
        .enumerate()
        .map(|(i, item)| {
            let n = i + 1;
            let text = args::document_text(item);
            match item.get("source").filter(|s| !s.is_null()) {
                Some(source) => {
                    let source = vai_workflow::value::to_text(Some(source));
                    format!("[{n}] (source: {source}) {text}")
                }
                None => format!("[{n}] {text}"),
            }
        })
        .collect();
    (!sources.is_empty()).then(|| sources.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{Fakes, run};
    use serde_json::json;
    use vai_providers::{ProviderError, Role, Settings};
    use vai_workflow::ToolError;

    #[tokio::test]
    async fn results_become_numbered_sources_after_the_prompt() {
        let fakes = Fakes::new();
        let tool = Generate::new(fakes.providers());
        let out = run(
            &tool,
            json!({
                "prompt": "What is vai?",
                "systemPrompt": "Cite sources.",
                "context": [
                    {"text": "vai composes RAG pipelines", "source": "readme.md", "score": 0.9},
                    null,
                    {"content": "Workflows are JSON files"},
                    "a plain string"
                ],
                "model": "claude-x",
                "temperature": 0.2,
                "maxTokens": "300"
            }),
            json!({}),
        )
        .await
        .unwrap();
        let request = &fakes.llm.requests()[0];
        assert_eq!(request.system.as_deref(), Some("Cite sources."));
        assert_eq!(request.messages.len(), 1);
        assert_eq!(request.messages[0].role, Role::User);
        assert_eq!(
            request.messages[0].content,
            "What is vai?\n\nContext:\n[1] (source: readme.md) vai composes RAG pipelines\n\n\
             [2] Workflows are JSON files\n\n[3] a plain string"
        );
        assert_eq!(
            (
                request.model.as_deref(),
                request.temperature,
                request.max_tokens
            ),
            (Some("claude-x"), Some(0.2), Some(300))
        );

        let obj = out.output.as_object().unwrap();
        assert_eq!(
            obj.keys().collect::<Vec<_>>(),
            ["text", "model", "provider", "method", "usage", "cost"]
        );
        assert_eq!(obj["method"], "generated");
        assert!(
            obj["text"]
                .as_str()
                .unwrap()
                .starts_with("fake answer to: What is vai?")
        );
        assert_eq!(obj["model"], "claude-x");
        assert_eq!(obj["provider"], "fake");
        let usage = out.usage.unwrap();
        assert!(usage.llm_input_tokens > 0 && usage.llm_output_tokens > 0);
        assert_eq!(usage.requests, 1);
        assert_eq!(obj["usage"]["llmInputTokens"], usage.llm_input_tokens);
        // claude-x has no price: its cost is unknown, not free.
        assert_eq!(obj["cost"]["usd"], Value::Null);
        assert_eq!(obj["cost"]["unpriced"], json!(["claude-x"]));
        assert_eq!(usage.cost.unwrap().unpriced, ["claude-x"]);
    }

    #[test]
    fn context_shapes() {
        assert_eq!(render_context(&json!("as is")).as_deref(), Some("as is"));
        assert_eq!(render_context(&json!("  ")), None);
        assert_eq!(render_context(&json!([])), None);
        assert_eq!(render_context(&Value::Null), None);
        assert_eq!(
            render_context(&json!({"results": [{"text": "t", "source": 3}], "resultCount": 1}))
                .as_deref(),
            Some("[1] (source: 3) t")
        );
        assert_eq!(
            render_context(&json!({"a": 1})).as_deref(),
            Some("{\"a\":1}")
        );
        assert_eq!(render_context(&json!(42)).as_deref(), Some("42"));
    }

    /// The providers with the fake LLM answering from sources by quoting them.
    fn grounded(fakes: &Fakes) -> Arc<Providers> {
        // Wide vectors, so unrelated words seldom share a bucket.
        let embedder = Arc::new(vai_providers::fakes::FakeEmbedder::new(4096));
        let llm = vai_providers::grounded::GroundedLlm::new(fakes.llm.clone(), embedder);
        Arc::new(Providers::none(Settings::default()).with_llm(Arc::new(llm)))
    }

    #[tokio::test]
    async fn a_grounding_model_quotes_the_context_that_answers_and_cites_it() {
        let fakes = Fakes::new();
        let tool = Generate::new(grounded(&fakes));
        let out = run(
            &tool,
            json!({
                "prompt": "Answer from the documents.\n\nQuestion: How long does the grace period last after rolling?\n\n",
                "context": {"results": [
                    {"text": "Lists return at most 100 items per page.", "source": "Pagination"},
                    {"text": "# Rolling\n\nRolling replaces a secret. The grace period after rolling lasts 24 hours by default.", "source": "Rolling an API Key"}
                ]}
            }),
            json!({}),
        )
        .await
        .unwrap();
        assert!(
            fakes.llm.requests().is_empty(),
            "the model was asked to write"
        );
        assert_eq!(out.output["method"], "extractive");
        let text = out.output["text"].as_str().unwrap();
        assert!(
            text.contains("The grace period after rolling lasts 24 hours by default. [2]"),
            "{text}"
        );
        assert_eq!(
            out.output["citations"][0],
            json!({"index": 2, "source": "Rolling an API Key", "passage": "The grace period after rolling lasts 24 hours by default."})
        );
        assert_eq!(out.output["provider"], "fake");
    }

    #[tokio::test]
    async fn a_grounding_model_declines_when_the_context_does_not_answer_and_writes_without_one() {
        let fakes = Fakes::new();
        let tool = Generate::new(grounded(&fakes));
        let out = run(
            &tool,
            json!({"prompt": "Which regions host the EU data centre?", "context": [{"text": "Lists return at most 100 items per page."}]}),
            json!({}),
        )
        .await
        .unwrap();
        assert_eq!(out.output["method"], "declined", "{}", out.output);
        assert_eq!(out.output["text"], vai_providers::grounded::DECLINED);
        assert_eq!(out.output["citations"], json!([]));

        let out = run(&tool, json!({"prompt": "Write a haiku"}), json!({}))
            .await
            .unwrap();
        assert_eq!(out.output["method"], "generated");
        assert_eq!(out.output["text"], "fake answer to: Write a haiku");
    }

    #[test]
    fn the_question_is_read_from_the_prompt() {
        assert_eq!(
            question_of("Answer it.\n\nQuestion: How?\n\nhistory"),
            "How?"
        );
        assert_eq!(question_of("summarize this question: why now"), "why now");
        assert_eq!(question_of("Plain prompt"), "Plain prompt");
        assert_eq!(question_of("Question:   \n"), "Question:   \n");
    }

    #[tokio::test]
    async fn without_context_the_prompt_goes_alone() {
        let fakes = Fakes::new();
        let tool = Generate::new(fakes.providers());
        let out = run(&tool, json!({"prompt": "Hi", "context": []}), json!({}))
            .await
            .unwrap();
        assert_eq!(out.output["text"], "fake answer to: Hi");
        assert_eq!(out.output["model"], "fake-llm");
        let request = &fakes.llm.requests()[0];
        assert_eq!(request.system, None);
        assert_eq!((request.temperature, request.max_tokens), (None, None));
    }

    #[tokio::test]
    async fn no_llm_configured_says_what_to_set() {
        let tool = Generate::new(Arc::new(Providers::none(Settings::default())));
        let err = run(&tool, json!({"prompt": "Hi"}), json!({}))
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)));
        assert!(
            err.to_string().starts_with(
                "generate: no LLM provider is configured. Set VAI_LLM_PROVIDER (anthropic, openai or ollama) and VAI_LLM_API_KEY"
            ),
            "{err}"
        );
    }

    #[tokio::test]
    async fn inputs_and_provider_errors() {
        let fakes = Fakes::new();
        let tool = Generate::new(fakes.providers());
        let err = run(&tool, json!({"prompt": ""}), json!({}))
            .await
            .unwrap_err();
        assert_eq!(err.to_string(), "generate: input \"prompt\" is required");
        let err = run(&tool, json!({"prompt": "p", "temperature": 3}), json!({}))
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("must be at most 2, got 3"),
            "{err}"
        );
        fakes.llm.fail_next(ProviderError::RateLimited {
            provider: "anthropic".into(),
            message: "overloaded".into(),
            retry_after: None,
        });
        let err = run(&tool, json!({"prompt": "p"}), json!({}))
            .await
            .unwrap_err();
        assert!(err.is_transient());
        assert!(fakes.llm.requests().len() == 1);
    }

    #[tokio::test]
    async fn a_response_format_is_sent_asked_for_and_its_answer_parsed() {
        let fakes = Fakes::new();
        let tool = Generate::new(fakes.providers());
        let format = json!({
            "type": "object",
            "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}}
        });
        let context = json!([{"text": "Paris is the capital of France.", "source": "fr.md"}]);
        fakes.llm.answer_next(" {\"score\": 4}\n");
        let out = run(
            &tool,
            json!({"prompt": "Rate it", "context": context, "responseFormat": format}),
            json!({}),
        )
        .await
        .unwrap();
        assert_eq!(out.output["parsed"], json!({"score": 4}));
        assert_eq!(out.output["method"], "generated");
        let request = &fakes.llm.requests()[0];
        assert_eq!(request.response_format.as_ref(), Some(&format));
        assert!(
            request
                .system
                .as_deref()
                .unwrap()
                .starts_with("Answer with one JSON value and nothing else")
        );

        fakes.llm.answer_next("{\"score\": 9}");
        let err = run(
            &tool,
            json!({"prompt": "Rate it", "responseFormat": format}),
            json!({}),
        )
        .await
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "generate: the answer does not follow responseFormat: the answer.score is 9; allowed: 1, 2, 3, 4, 5"
        );
        fakes.llm.answer_next("Four.");
        let err = run(
            &tool,
            json!({"prompt": "Rate it", "responseFormat": format}),
            json!({}),
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains("the answer is not JSON"), "{err}");

        let bad = json!({"type": "object", "properties": {"when": {"type": "date"}}});
        let err = run(
            &tool,
            json!({"prompt": "p", "responseFormat": bad}),
            json!({}),
        )
        .await
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("responseFormat.properties.when.type")
                && err.to_string().contains("\"date\" is not supported"),
            "{err}"
        );
        assert_eq!(fakes.llm.requests().len(), 3, "a bad schema asks nothing");
    }
}
