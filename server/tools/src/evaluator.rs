//! The `evaluator` tool: an LLM scores content against named metrics, each in its range. The
//! answer is asked for as structured output (a schema built from the metrics), and every score
//! is checked again: a missing or out-of-range score fails the step naming its metric, never a
//! silent default.

use crate::args;
use crate::generate::{model_input, render_context};
use crate::retrieval::provider_error;
use crate::served::{Served, USAGE_OUTPUTS};
use serde_json::{Map, Value, json};
use std::sync::{Arc, LazyLock};
use vai_providers::local::llm::LocalLlm;
use vai_providers::structured::{self, Schema};
use vai_providers::{CompletionRequest, Message, Providers};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{
    ApiCalls, Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec, has_template,
};

const NAME: &str = "evaluator";
/// Metrics one step may score.
const MAX_METRICS: usize = 20;
/// Longest reasoning asked for.
const MAX_REASONING: usize = 600;

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Scores content with the configured LLM.
pub struct Evaluator {
    providers: Arc<Providers>,
}

impl Evaluator {
    pub fn new(providers: Arc<Providers>) -> Self {
        Evaluator { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Evaluator",
        category: Category::Generation,
        icon: "Grading",
        description: "Score content against named metrics with the configured LLM",
        help: "Asks the LLM to score `content` on each of `metrics` ([{name, description, range: {min, max}}], default range 1 to 5), with `context` (optional reference material, as `generate` renders it) to judge against. The answer is requested as structured output against a schema built from the metrics (whole numbers when both ends of a range are whole and at least 2 apart, as 1 to 5), so every score is a number in its range; one that is missing or out of range fails the step naming the metric. Output: `scores` ({name: score}), `reasoning`, `model`, `provider`. On the small offline model (SmolLM2-135M) the scores are valid but not reliable judgements: the output says `judge: \"local-small\"` with a `notice`; configure an LLM (OpenAI, Anthropic, Ollama) for scores you can use.",
        input_schema: InputSchema::new()
            .required_input(
                "content",
                PropertySchema::of(JsonType::String)
                    .describe("What to score, e.g. {{ answer.output.text }}")
                    .format(WidgetFormat::Multiline),
            )
            .required_input(
                "metrics",
                PropertySchema::of(JsonType::Array)
                    .describe(
                        "[{name, description, range: {min, max}}]: what to score, each in its range",
                    )
                    .format(WidgetFormat::Metrics),
            )
            .input(
                "context",
                PropertySchema::one_of(&[JsonType::Array, JsonType::Object, JsonType::String])
                    .describe(
                        "Reference material to judge against, e.g. {{ query.output.results }}",
                    ),
            )
            .input("model", model_input()),
        outputs: &[
            (
                "scores",
                "{metric name: score}, each a number in its metric's range",
            ),
            ("reasoning", "why the model gave these scores"),
            ("model", "the model that scored"),
            ("provider", "the LLM provider"),
            (
                "judge",
                "\"local-small\" when the small offline model scored (valid, not reliable)",
            ),
            (
                "notice",
                "with judge: what the scores are worth and how to get better ones",
            ),
            USAGE_OUTPUTS[0],
            USAGE_OUTPUTS[1],
        ],
        deferred: &[],
        main_input: Some("content"),
        api_calls: ApiCalls {
            embed: 0,
            rerank: 0,
            vector_search: 0,
            llm: 1,
            http: 0,
        },
        effects: Effects::READS_REMOTE,
        optional_calls: &[],
        uses_store: false,
    }
}

/// One metric, as the step gave it.
#[derive(Debug, Clone, PartialEq)]
struct Metric {
    name: String,
    description: String,
    min: f64,
    max: f64,
}

impl Metric {
    /// Scored in whole numbers: both ends whole and at least three values between them (0 to 1
    /// is a fraction, 1 to 5 a grade).
    fn whole(&self) -> bool {
        self.min.fract() == 0.0 && self.max.fract() == 0.0 && self.max - self.min >= 2.0
    }
}

/// The metrics of the step, or the field that is wrong and why.
fn metrics_of(list: &[Value]) -> Result<Vec<Metric>, (String, String)> {
    if list.is_empty() {
        return Err(("metrics".into(), "lists no metric".into()));
    }
    if list.len() > MAX_METRICS {
        return Err((
            "metrics".into(),
            format!("lists {} metrics; at most {MAX_METRICS}", list.len()),
        ));
    }
    let mut metrics: Vec<Metric> = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let at = format!("metrics[{i}]");
        let Some(obj) = item.as_object() else {
            return Err((at, "must be an object {name, description, range}".into()));
        };
        let name = obj
            .get("name")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or("");
        if name.is_empty() || name.chars().any(|c| c < ' ' || c == '"' || c == '\\') {
            return Err((
                format!("{at}.name"),
                "must be a name without quotes, backslashes or control characters".into(),
            ));
        }
        if metrics.iter().any(|m| m.name == name) {
            return Err((format!("{at}.name"), format!("\"{name}\" is listed twice")));
        }
        let bound = |key: &str, default: f64| match obj.get("range").and_then(|r| r.get(key)) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
                (
                    format!("{at}.range.{key}"),
                    format!("must be a number, got {v}"),
                )
            }),
        };
        let (min, max) = (bound("min", 1.0)?, bound("max", 5.0)?);
        if min > max {
            return Err((
                format!("{at}.range"),
                format!("min {min} is more than max {max}"),
            ));
        }
        metrics.push(Metric {
            name: name.to_string(),
            description: obj
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim()
                .to_string(),
            min,
            max,
        });
    }
    Ok(metrics)
}

/// The answer's schema: the reasoning first (a model reasons better before it scores), then a
/// score per metric.
fn answer_schema(metrics: &[Metric]) -> Value {
    let scores: Map<String, Value> = metrics
        .iter()
        .map(|m| {
            let kind = if m.whole() { "integer" } else { "number" };
            (
                m.name.clone(),
                json!({"type": kind, "minimum": m.min, "maximum": m.max}),
            )
        })
        .collect();
    json!({
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "maxLength": MAX_REASONING},
            "scores": {"type": "object", "properties": scores}
        }
    })
}

fn prompt(content: &str, metrics: &[Metric], context: Option<&str>) -> String {
    let mut out = String::from("Score the content below on each metric.\n\nMetrics:\n");
    for m in metrics {
        let what = match m.description.is_empty() {
            true => String::new(),
            false => format!(": {}", m.description),
        };
        out.push_str(&format!("- {} ({} to {}){what}\n", m.name, m.min, m.max));
    }
    if let Some(context) = context {
        out.push_str(&format!("\nReference material:\n{context}\n"));
    }
    out.push_str(&format!("\nContent:\n{content}"));
    out
}

/// Each metric's score from the answer, or an error naming the metric whose score is missing
/// or wrong.
fn scores_of(answer: &Value, metrics: &[Metric]) -> Result<Map<String, Value>, ToolError> {
    let given = answer.get("scores").and_then(Value::as_object);
    let mut scores = Map::new();
    for m in metrics {
        let fail =
            |why: String| ToolError::Failed(format!("{NAME}: the score of \"{}\" {why}", m.name));
        let score = given
            .and_then(|s| s.get(&m.name))
            .ok_or_else(|| fail("is missing".into()))?;
        let x = score
            .as_f64()
            .ok_or_else(|| fail(format!("is {score}, not a number")))?;
        if x < m.min || x > m.max {
            return Err(fail(format!("is {x}, outside {}..{}", m.min, m.max)));
        }
        scores.insert(m.name.clone(), score.clone());
    }
    Ok(scores)
}

impl Tool for Evaluator {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn check_inputs(&self, inputs: &Map<String, Value>) -> Vec<(String, String)> {
        match inputs.get("metrics") {
            Some(Value::Array(list)) if !list.iter().any(has_template) => {
                metrics_of(list).err().into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let content = args::required_str(NAME, &call, "content")?;
            let metrics = metrics_of(args::required_array(NAME, &call, "metrics")?)
                .map_err(|(field, message)| ToolError::invalid(NAME, field, message))?;
            let llm = self
                .providers
                .llm(NAME)
                .map_err(|e| provider_error(NAME, e))?;
            let context = call.input("context").and_then(render_context);
            let format = answer_schema(&metrics);
            let schema =
                Schema::compile(&format).map_err(|e| ToolError::Failed(format!("{NAME}: {e}")))?;
            let request = CompletionRequest {
                system: Some(format!(
                    "You are a strict evaluator. {}",
                    structured::instruction(&format)
                )),
                messages: vec![Message::user(prompt(content, &metrics, context.as_deref()))],
                model: args::opt_string(&call, "model"),
                temperature: Some(0.0),
                max_tokens: Some(1024),
                tools: Vec::new(),
                response_format: Some(format),
            };
            let completion = llm
                .complete(request)
                .await
                .map_err(|e| provider_error(NAME, e))?;
            let mut served = Served::new(&self.providers.pricing);
            served.llm(llm.name(), &completion.model, completion.usage);
            let answer = schema.validate(&completion.text).or_else(|e| {
                // Scores are what matter: read them from any JSON, and say which is wrong.
                serde_json::from_str::<Value>(completion.text.trim())
                    .map_err(|_| ToolError::Failed(format!("{NAME}: {e}")))
            })?;
            let scores = scores_of(&answer, &metrics)?;
            let reasoning = answer
                .get("reasoning")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let mut output = Map::new();
            output.insert("scores".into(), Value::Object(scores));
            output.insert("reasoning".into(), Value::String(reasoning));
            output.insert("model".into(), Value::String(completion.model));
            output.insert("provider".into(), Value::String(llm.name().to_string()));
            if llm.name() == LocalLlm::NAME {
                output.insert("judge".into(), json!("local-small"));
                output.insert(
                    "notice".into(),
                    json!(
                        "Scored by the small offline model (SmolLM2-135M): each score is in its \
                         range, but it is not a judgement to rely on. Configure an LLM (Ollama \
                         offline, OpenAI or Anthropic) for scores you can use."
                    ),
                );
            }
            Ok(served.model_output(Value::Object(output)))
        })
    }
}

#[cfg(test)]
mod tests;
