//! The agent step's side of the shared tool loop: each model call counted, each call the model
//! makes checked against what the step offers (anything else is never run), run through the
//! engine's [`Calls`] handle and recorded for the step's `toolCalls`; and the step's output.

use super::offer::Offer;
use crate::served::{Served, usage_fields};
use serde_json::{Map, Value, json};
use vai_providers::llm::tool_loop::{self, Host, Ready, Runner};
use vai_providers::llm::{Completion, CompletionRequest, Llm, LlmToolCall};
use vai_providers::{Pricing, ProviderError};
use vai_workflow::tool::Calls;
use vai_workflow::value::{kind, summarise};
use vai_workflow::{ToolOutput, Usage};

/// What an agent step gathers while it runs.
pub(super) struct AgentHost<'a> {
    llm: &'a dyn Llm,
    offer: &'a Offer<'a>,
    /// The model's calls, priced.
    served: Served<'a>,
    /// What the tools and workflows it called reported.
    called: Usage,
    /// `toolCalls`, in the order the calls were made.
    records: Vec<Value>,
}

impl<'a> AgentHost<'a> {
    pub(super) fn new(llm: &'a dyn Llm, offer: &'a Offer<'a>, pricing: &'a Pricing) -> Self {
        AgentHost {
            llm,
            offer,
            served: Served::new(pricing),
            called: Usage::default(),
            records: Vec::new(),
        }
    }

    /// The step's output: the answer, what it called, and the usage of all of it.
    pub(super) fn output(
        self,
        answer: Completion,
        parsed: Option<Value>,
        iterations: usize,
        notices: Vec<String>,
    ) -> ToolOutput {
        let mut out = self.served.output(Value::Null);
        let mut usage = out.usage.take().unwrap_or_default();
        usage.add(&self.called);
        let (usage_value, cost) = usage_fields(&usage);
        let mut fields = Map::new();
        fields.insert("content".into(), Value::String(answer.text));
        if let Some(parsed) = parsed {
            fields.insert("parsed".into(), parsed);
        }
        fields.insert("toolCalls".into(), Value::Array(self.records));
        fields.insert("iterations".into(), json!(iterations));
        fields.insert("model".into(), Value::String(answer.model));
        fields.insert("usage".into(), usage_value);
        fields.insert("cost".into(), cost);
        if !notices.is_empty() {
            fields.insert("notice".into(), Value::String(notices.join(" ")));
        }
        out.output = Value::Object(fields);
        out.usage = Some(usage);
        out
    }
}

impl Host for AgentHost<'_> {
    /// The name the step gave what the model called, when it is offered.
    type Pending = Option<String>;
    type Output = ToolOutput;
    type Error = ProviderError;

    async fn complete(&mut self, request: CompletionRequest) -> Result<Completion, ProviderError> {
        let completion = self.llm.complete(request).await?;
        self.served
            .llm(self.llm.name(), &completion.model, completion.usage);
        Ok(completion)
    }

    fn begin(&mut self, call: &LlmToolCall) -> (Option<String>, Result<Ready, String>) {
        let Some(offered) = self.offer.find(&call.name) else {
            let offered = match self.offer.is_empty() {
                true => "this step offers no tool".to_string(),
                false => format!("the tools are {}", self.offer.model_names()),
            };
            return (
                None,
                Err(format!("there is no tool \"{}\"; {offered}", call.name)),
            );
        };
        let name = offered.callable.name().to_string();
        let arguments = match &call.arguments {
            Value::Object(map) => Ok(map.clone()),
            Value::Null => Ok(Map::new()),
            other => Err(format!(
                "the arguments of {} must be a JSON object, not {}",
                call.name,
                kind(other)
            )),
        };
        let ready = arguments.map(|arguments| Ready {
            tool: name.clone(),
            arguments,
        });
        (Some(name), ready)
    }

    fn end(
        &mut self,
        call: &LlmToolCall,
        name: Option<String>,
        outcome: Result<ToolOutput, String>,
        duration_ms: u64,
    ) -> Result<String, String> {
        let (ok, summary, result) = match outcome {
            Ok(out) => {
                if let Some(usage) = &out.usage {
                    self.called.add(usage);
                }
                let text = tool_loop::result_for_model(&out.output);
                (true, summarise(&out.output), Ok(text))
            }
            Err(message) => (false, message.clone(), Err(message)),
        };
        self.records.push(json!({
            "name": name.unwrap_or_else(|| call.name.clone()),
            "arguments": call.arguments,
            "ok": ok,
            "summary": summary,
            "durationMs": duration_ms,
        }));
        result
    }
}

/// Runs the calls the host let through on the engine's handle.
pub(super) struct AgentRunner<'a>(pub(super) Option<&'a dyn Calls>);

impl Runner for AgentRunner<'_> {
    type Output = ToolOutput;

    async fn run(&self, _call: &LlmToolCall, ready: &Ready) -> Result<ToolOutput, String> {
        let Some(calls) = self.0 else {
            return Err(format!("{} cannot be called here", ready.tool));
        };
        calls
            .call(&ready.tool, ready.arguments.clone())
            .await
            .map_err(|e| e.to_string())
    }
}
