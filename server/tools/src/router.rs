//! The `router` tool: picks exactly one of a step's routes for a text. With a configured LLM
//! the choice is structured output restricted to the route ids (`method: "llm"`); when the only
//! model is the small offline one, or there is none, it is the route whose description is
//! closest to the text by embedding similarity (`method: "similarity"`, with each route's
//! score) — a 135M model is no judge of routes. The engine skips the routes not chosen.

use crate::args;
use crate::generate::model_input;
use crate::retrieval::provider_error;
use crate::served::{Served, USAGE_OUTPUTS};
use serde_json::{Map, Value, json};
use std::sync::{Arc, LazyLock};
use vai_providers::local::llm::LocalLlm;
use vai_providers::structured::{self, Schema};
use vai_providers::{CompletionRequest, EmbedRequest, Message, Providers, cosine_similarity};
use vai_workflow::control::{MAX_ROUTES, ROUTER as NAME};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec};

/// Below this similarity no route's description is close to the text: the fallback is taken
/// when the step names one. MiniLM puts unrelated sentences under ~0.15, related ones over ~0.3.
pub const MIN_SIMILARITY: f64 = 0.2;
/// Most phrases of one description embedded on their own.
const MAX_PHRASES: usize = 16;
/// Longest reason asked of the model.
const MAX_REASON: usize = 300;

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Routes a text to one of the step's routes.
pub struct Router {
    providers: Arc<Providers>,
}

impl Router {
    pub fn new(providers: Arc<Providers>) -> Self {
        Router { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Router",
        category: Category::ControlFlow,
        icon: "AltRoute",
        description: "Choose one route for a text; the steps of the other routes are skipped",
        help: "Chooses exactly one of `routes` ([{id, description, steps}]) for `input`. The steps a route lists run only when it is chosen; those of the other routes are skipped with the reason `router \"<id>\" chose \"<route>\"`, as a conditional's untaken branch (a step belongs to one route; steps in no route always run). With a configured LLM (OpenAI, Anthropic, Ollama) the model chooses, as structured output restricted to the route ids (`method: \"llm\"`); when the only model is the small offline one, or there is none, the route whose description (or a phrase of it between commas) is closest to `input` by embedding similarity is chosen (`method: \"similarity\"`, with `scores` per route) — one embedding call instead of an LLM call. `method` forces either. `fallback` names the route taken when no description is similar enough (below 0.2) or the model's answer names no route.",
        input_schema: InputSchema::new()
            .required_input(
                "input",
                PropertySchema::of(JsonType::String)
                    .describe("The text to route, e.g. {{ inputs.question }}")
                    .format(WidgetFormat::Multiline),
            )
            .required_input(
                "routes",
                PropertySchema::of(JsonType::Array)
                    .describe("[{id, description, steps}]: each route, what it is for, and the step ids it runs")
                    .format(WidgetFormat::Routes),
            )
            .input(
                "fallback",
                PropertySchema::of(JsonType::String)
                    .describe("The route id taken when nothing matches well enough"),
            )
            .input(
                "method",
                PropertySchema::of(JsonType::String)
                    .choices(["llm", "similarity"])
                    .describe("How to choose; by default the LLM when one is configured (not the small offline one), else similarity"),
            )
            .input("model", model_input()),
        outputs: &[
            ("route", "the id of the chosen route"),
            ("reason", "why it was chosen"),
            ("method", "\"llm\" or \"similarity\""),
            ("scores", "with similarity: {route id: cosine similarity}"),
            ("model", "the model that chose (an LLM, or the embedding model)"),
            USAGE_OUTPUTS[0],
            USAGE_OUTPUTS[1],
        ],
        deferred: &[],
        main_input: Some("input"),
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

/// One route as the step's inputs give it (the engine has checked ids and steps).
struct Route {
    id: String,
    description: String,
}

fn routes_of(list: &[Value]) -> Result<Vec<Route>, ToolError> {
    if list.is_empty() || list.len() > MAX_ROUTES {
        return Err(ToolError::invalid(
            NAME,
            "routes",
            format!("must hold 1 to {MAX_ROUTES} routes"),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(n, r)| {
            let id = r.get("id").and_then(Value::as_str).ok_or_else(|| {
                ToolError::invalid(NAME, format!("routes[{n}].id"), "must be a string")
            })?;
            let description = match r.get("description") {
                Some(Value::String(d)) if !d.trim().is_empty() => d.trim().to_string(),
                _ => {
                    return Err(ToolError::invalid(
                        NAME,
                        format!("routes[{n}].description"),
                        "is required: it is what the route is chosen by",
                    ));
                }
            };
            Ok(Route {
                id: id.to_string(),
                description,
            })
        })
        .collect()
}

/// What was chosen, and how.
struct Choice {
    route: String,
    reason: String,
    method: &'static str,
    scores: Option<Map<String, Value>>,
    model: String,
}

impl Tool for Router {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let input = args::required_str(NAME, &call, "input")?;
            let routes = routes_of(args::required_array(NAME, &call, "routes")?)?;
            let fallback = call.str_input("fallback");
            if let Some(f) = fallback.filter(|f| !routes.iter().any(|r| r.id == *f)) {
                return Err(ToolError::invalid(
                    NAME,
                    "fallback",
                    format!("is \"{f}\", not one of the route ids"),
                ));
            }
            let method = match call.str_input("method") {
                Some("llm") => "llm",
                Some("similarity") => "similarity",
                Some(other) => {
                    return Err(ToolError::invalid(
                        NAME,
                        "method",
                        format!("is \"{other}\"; use \"llm\" or \"similarity\""),
                    ));
                }
                // The small offline model is no judge of routes.
                None => match self.providers.llm(NAME) {
                    Ok(llm) if llm.name() != LocalLlm::NAME => "llm",
                    _ => "similarity",
                },
            };
            let mut served = Served::new(&self.providers.pricing);
            let choice = match method {
                "llm" => {
                    self.by_llm(&call, input, &routes, fallback, &mut served)
                        .await?
                }
                _ => {
                    self.by_similarity(&call, input, &routes, fallback, &mut served)
                        .await?
                }
            };
            let mut output = Map::new();
            output.insert("route".into(), Value::String(choice.route));
            output.insert("reason".into(), Value::String(choice.reason));
            output.insert("method".into(), json!(choice.method));
            if let Some(scores) = choice.scores {
                output.insert("scores".into(), Value::Object(scores));
            }
            output.insert("model".into(), Value::String(choice.model));
            Ok(served.model_output(Value::Object(output)))
        })
    }
}

impl Router {
    /// The route whose description is closest to `input`.
    async fn by_similarity(
        &self,
        call: &ToolCall<'_>,
        input: &str,
        routes: &[Route],
        fallback: Option<&str>,
        served: &mut Served<'_>,
    ) -> Result<Choice, ToolError> {
        let embedder = self
            .providers
            .embedder(NAME)
            .map_err(|e| provider_error(NAME, e))?;
        let model = self.providers.settings.embedding_model(None, call.defaults);
        // Each route is scored by the closest of its description and the phrases in it ("…:
        // payments, invoices, refunds"): a list of topics embedded whole is a blur of them.
        let mut texts = vec![input.to_string()];
        let mut owner = Vec::new();
        for (n, route) in routes.iter().enumerate() {
            for text in
                std::iter::once(route.description.as_str()).chain(phrases(&route.description))
            {
                texts.push(text.to_string());
                owner.push(n);
            }
        }
        let response = embedder
            .embed(EmbedRequest {
                texts,
                model,
                // Descriptions and the text are both short statements of a topic: embedded
                // alike, so their similarities compare.
                input_type: None,
                dimensions: None,
            })
            .await
            .map_err(|e| provider_error(NAME, e))?;
        served.embed(embedder.name(), &response.model, response.usage);
        let Some((first, rest)) = response.embeddings.split_first() else {
            return Err(ToolError::Failed(format!(
                "{NAME}: {} returned no embeddings",
                embedder.name()
            )));
        };
        if rest.len() != owner.len() {
            return Err(ToolError::Failed(format!(
                "{NAME}: {} returned {} embeddings for {} texts",
                embedder.name(),
                rest.len() + 1,
                owner.len() + 1
            )));
        }
        let mut best = vec![f64::MIN; routes.len()];
        for (&n, vector) in owner.iter().zip(rest) {
            best[n] = best[n].max(cosine_similarity(first, vector));
        }
        let scored: Vec<(&Route, f64)> = routes
            .iter()
            .zip(best)
            .map(|(r, s)| (r, round(s)))
            .collect();
        let scores = scored
            .iter()
            .map(|(r, s)| (r.id.clone(), json!(s)))
            .collect();
        let mut ranked = scored.clone();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let (best, score) = ranked[0];
        let next = ranked
            .get(1)
            .map(|(r, s)| format!("; next \"{}\" {s:.2}", r.id))
            .unwrap_or_default();
        let (route, reason) = match fallback {
            Some(f) if score < MIN_SIMILARITY => (
                f.to_string(),
                format!(
                    "no route's description is close to the input (best \"{}\" {score:.2}, under {MIN_SIMILARITY}): the fallback",
                    best.id
                ),
            ),
            _ => (
                best.id.clone(),
                format!("its description is the closest to the input ({score:.2}{next})"),
            ),
        };
        Ok(Choice {
            route,
            reason,
            method: "similarity",
            scores: Some(scores),
            model: response.model,
        })
    }

    /// The route the LLM chooses, as structured output restricted to the route ids.
    async fn by_llm(
        &self,
        call: &ToolCall<'_>,
        input: &str,
        routes: &[Route],
        fallback: Option<&str>,
        served: &mut Served<'_>,
    ) -> Result<Choice, ToolError> {
        let llm = self
            .providers
            .llm(NAME)
            .map_err(|e| provider_error(NAME, e))?;
        let ids: Vec<&str> = routes.iter().map(|r| r.id.as_str()).collect();
        let format = json!({
            "type": "object",
            "properties": {
                "route": {"enum": ids},
                "reason": {"type": "string", "maxLength": MAX_REASON}
            }
        });
        let schema =
            Schema::compile(&format).map_err(|e| ToolError::Failed(format!("{NAME}: {e}")))?;
        let mut prompt = String::from("Choose the one route that fits the input.\n\nRoutes:\n");
        for r in routes {
            prompt.push_str(&format!("- {}: {}\n", r.id, r.description));
        }
        if let Some(f) = fallback {
            prompt.push_str(&format!("When none fits, choose \"{f}\".\n"));
        }
        prompt.push_str(&format!("\nInput:\n{input}"));
        let completion = llm
            .complete(CompletionRequest {
                system: Some(format!(
                    "You route requests. {}",
                    structured::instruction(&format)
                )),
                messages: vec![Message::user(prompt)],
                model: args::opt_string(call, "model"),
                temperature: Some(0.0),
                max_tokens: Some(256),
                tools: Vec::new(),
                response_format: Some(format),
            })
            .await
            .map_err(|e| provider_error(NAME, e))?;
        served.llm(llm.name(), &completion.model, completion.usage);
        let (route, reason) = match schema.validate(&completion.text) {
            Ok(answer) => (
                answer["route"].as_str().unwrap_or_default().to_string(),
                answer["reason"].as_str().unwrap_or_default().to_string(),
            ),
            Err(e) => match fallback {
                Some(f) => (
                    f.to_string(),
                    format!("the model's answer named no route ({e}): the fallback"),
                ),
                None => {
                    return Err(ToolError::Failed(format!(
                        "{NAME}: the model's answer named no route ({e}); give the step a fallback route"
                    )));
                }
            },
        };
        Ok(Choice {
            route,
            reason,
            method: "llm",
            scores: None,
            model: completion.model,
        })
    }
}

/// The phrases of a description listing topics: its pieces between `,`, `;` and `:` (at most
/// [`MAX_PHRASES`]), when it has more than one.
fn phrases(description: &str) -> impl Iterator<Item = &str> {
    let pieces: Vec<&str> = description
        .split([',', ';', ':'])
        .map(str::trim)
        .filter(|p| p.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
        .collect();
    let several = pieces.len() > 1;
    pieces
        .into_iter()
        .filter(move |_| several)
        .take(MAX_PHRASES)
}

/// Four decimals: enough to compare, short to read.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod wire_tests;
