//! Agent mode (docs/chat.md, "Modes"): the model gets vai's tools and calls them — several at
//! once if it likes — until it answers or reaches the iteration limit. The rounds are the shared
//! tool loop's (`vai_providers::llm::tool_loop`, which the workflow `agent` step runs too); this
//! module is chat's side of it: every call is reported as it starts and as it ends, and a call
//! the model got wrong (an unknown tool, arguments that are not an object, inputs the tool
//! refuses) goes back to the model as an error it can correct.

use crate::prompt::{self, Budget};
use crate::tools;
use crate::turn::{Turn, Work};
use serde_json::{Map, Value, json};
use vai_contract::{ChatEvent, ChatToolCall, TurnState};
use vai_providers::llm::tool_loop::{self, Failed, Host, Ready, Runner};
use vai_providers::llm::{Completion, CompletionRequest, LlmToolCall, Message};
use vai_workflow::Usage;
use vai_workflow::value::summarise;

/// A tool output larger than this (as JSON) is not kept in the turn (the summary is).
const MAX_KEPT_OUTPUT: usize = vai_contract::INLINE_OUTPUT_LIMIT;

pub(crate) async fn answer(work: &Work<'_>, turn: &mut Turn<'_, '_>) -> Result<(), String> {
    let options = work.options;
    let definitions = tools::definitions(work.registry, options.allow_writes);
    let budget = Budget::for_model(work.llm.context_tokens());
    let (mut messages, dropped) = prompt::window(work.earlier, options.max_turns, budget.history);
    messages.push(Message::user(work.question));
    let mut system = work.system(prompt::AGENT_SYSTEM_PROMPT, dropped).await;
    match (&options.db, &options.collection) {
        (Some(db), Some(c)) => system.push_str(&format!(
            "\n\nThe default database is \"{db}\" and the default collection \"{c}\"."
        )),
        (Some(db), None) => system.push_str(&format!("\n\nThe default database is \"{db}\".")),
        _ => {}
    }
    let request = CompletionRequest {
        system: Some(system),
        messages,
        model: options.model.clone(),
        max_tokens: options.max_tokens,
        tools: definitions,
        ..CompletionRequest::default()
    };
    let mut host = ChatHost { work, turn };
    let runner = ChatRunner(work);
    match tool_loop::run(&mut host, &runner, request, options.max_iterations).await {
        Ok(_) => Ok(()),
        // A model that refuses tools on the first call (an Ollama model without tool support):
        // answer with the pipeline instead.
        Err(Failed { error, round: 0 }) if turn.answer.is_empty() && refuses_tools(&error) => {
            turn.notice(format!(
                "The model refused tool calls ({error}); answering with the fixed pipeline."
            ));
            crate::pipeline::answer(work, turn).await
        }
        Err(failed) => Err(failed.error),
    }
}

/// Whether a provider error says the model cannot take tools.
fn refuses_tools(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    lower.contains("does not support tools") || lower.contains("tools are not supported")
}

fn call_label(call: &LlmToolCall) -> String {
    let args = call.arguments.as_object().cloned().unwrap_or_default();
    match tools::registry_name(&call.name) {
        Some(tool) => tools::label(tool, &args),
        None => format!("Calling {}", call.name),
    }
}

/// Chat's side of the tool loop: the model's text streams into the turn, and each call is
/// reported and recorded there.
struct ChatHost<'w, 't, 's, 'a> {
    work: &'w Work<'w>,
    turn: &'t mut Turn<'s, 'a>,
}

/// What chat knows of a call between its start and its end.
struct Pending {
    /// The registry tool it names, when it names one.
    tool: Option<&'static str>,
    /// Its arguments with the chat's defaults filled in, or why they are not an object.
    args: Result<Map<String, Value>, String>,
    label: String,
}

impl Host for ChatHost<'_, '_, '_, '_> {
    type Pending = Pending;
    type Output = (Value, Option<Usage>);
    type Error = String;

    async fn complete(&mut self, request: CompletionRequest) -> Result<Completion, String> {
        self.turn.state(TurnState::Thinking, "Thinking");
        self.work.generate(self.turn, request).await
    }

    fn calling(&mut self, completion: &Completion) {
        self.turn.paragraph();
        let labels: Vec<String> = completion.tool_calls.iter().map(call_label).collect();
        self.turn.state(TurnState::CallingTools, labels.join("; "));
    }

    fn begin(&mut self, call: &LlmToolCall) -> (Pending, Result<Ready, String>) {
        let options = self.work.options;
        let registry = self.work.registry;
        let tool = tools::registry_name(&call.name).filter(|t| registry.tool(t).is_some());
        let mut args = match &call.arguments {
            Value::Object(map) => Ok(map.clone()),
            Value::Null => Ok(Map::new()),
            other => Err(format!(
                "the arguments of {} must be a JSON object, not {}",
                call.name,
                vai_workflow::value::kind(other)
            )),
        };
        if let (Some(tool), Ok(args)) = (tool, args.as_mut()) {
            tools::fill_defaults(
                registry,
                tool,
                args,
                options.db.as_deref(),
                options.collection.as_deref(),
            );
        }
        let label = match (tool, &args) {
            (Some(tool), Ok(args)) => tools::label(tool, args),
            _ => call_label(call),
        };
        self.turn.emit(ChatEvent::ToolCallStarted {
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: args
                .clone()
                .map(Value::Object)
                .unwrap_or(call.arguments.clone()),
            label: label.clone(),
        });
        let ready = match (tool, &args) {
            (Some(tool), _) if !options.allow_writes && tools::writes(registry, tool) => {
                Err(tools::writes_off(&call.name))
            }
            (None, _) => Err(format!(
                "there is no tool \"{}\"; the tools are {}",
                call.name,
                tools::definitions(registry, options.allow_writes)
                    .iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            (_, Err(message)) => Err(message.clone()),
            (Some(tool), Ok(args)) => Ok(Ready {
                tool: tool.to_string(),
                arguments: args.clone(),
            }),
        };
        (Pending { tool, args, label }, ready)
    }

    fn end(
        &mut self,
        call: &LlmToolCall,
        pending: Pending,
        outcome: Result<(Value, Option<Usage>), String>,
        duration_ms: u64,
    ) -> Result<String, String> {
        let turn = &mut *self.turn;
        turn.timings.retrieval_ms += duration_ms;
        let Pending { tool, args, label } = pending;
        let arguments = args.map(Value::Object).unwrap_or(call.arguments.clone());
        let (record, result) = match outcome {
            Ok((output, usage)) => {
                if let Some(usage) = usage {
                    turn.usage.add(&usage);
                }
                let model_view = numbered(turn, tool.unwrap_or_default(), &arguments, &output);
                let text = tool_loop::result_for_model(&model_view);
                let kept = (output.to_string().len() <= MAX_KEPT_OUTPUT).then(|| output.clone());
                let record = ChatToolCall {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    arguments,
                    label,
                    ok: true,
                    summary: summarise(&output),
                    output: kept,
                    duration_ms,
                };
                (record, Ok(text))
            }
            Err(message) => {
                let record = ChatToolCall {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    arguments,
                    label,
                    ok: false,
                    summary: message.clone(),
                    output: None,
                    duration_ms,
                };
                (record, Err(message))
            }
        };
        turn.tool_calls.push(record.clone());
        turn.emit(ChatEvent::ToolCallFinished { call: record });
        result
    }

    fn limit_reached(&mut self, rounds: usize) {
        self.turn.notice(format!(
            "Stopped calling tools after {rounds} rounds (the limit); the answer uses what they found."
        ));
    }
}

/// Runs a call on the registry, within the turn's limits and timeout.
struct ChatRunner<'w>(&'w Work<'w>);

impl Runner for ChatRunner<'_> {
    type Output = (Value, Option<Usage>);

    async fn run(
        &self,
        call: &LlmToolCall,
        ready: &Ready,
    ) -> Result<(Value, Option<Usage>), String> {
        self.0
            .run_tool(&ready.tool, ready.arguments.clone())
            .await
            .map_err(|e| format!("{}: {e}", call.name))
    }
}

/// A search's output as the model sees it: each result numbered with the citation it has among
/// the turn's sources (which learn of the results here).
fn numbered(turn: &mut Turn<'_, '_>, tool: &str, arguments: &Value, output: &Value) -> Value {
    if !matches!(tool, "query" | "search") {
        return output.clone();
    }
    let Some(results) = output.get("results").and_then(Value::as_array) else {
        return output.clone();
    };
    let collection = arguments.get("collection").and_then(Value::as_str);
    let numbers = turn.sources.add_results(results, collection);
    turn.sources_changed();
    let mut shown = output.clone();
    if let Some(list) = shown.get_mut("results").and_then(Value::as_array_mut) {
        for (result, number) in list.iter_mut().zip(numbers) {
            if let Some(map) = result.as_object_mut() {
                map.insert("cite".into(), json!(number));
            }
        }
    }
    shown
}
