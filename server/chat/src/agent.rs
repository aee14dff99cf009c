//! Agent mode (docs/chat.md, "Modes"): the model gets vai's tools and calls them — several at
//! once if it likes — until it answers or reaches the iteration limit. Every call is reported as
//! it starts and as it ends; a call the model got wrong (an unknown tool, arguments that are not
//! an object, inputs the tool refuses) goes back to the model as an error it can correct.

use crate::prompt::{self, Budget};
use crate::tools;
use crate::turn::{Turn, Work};
use futures_util::future::join_all;
use serde_json::{Map, Value, json};
use std::time::Instant;
use vai_contract::{ChatEvent, ChatToolCall, TurnState};
use vai_providers::llm::{CompletionRequest, LlmToolCall, Message};
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
    // Calls already made this turn and what they returned, so a model that repeats itself gets
    // the same answer at once instead of another run.
    let mut done: Vec<(String, Value, Result<String, String>)> = Vec::new();

    for round in 0..options.max_iterations {
        turn.state(TurnState::Thinking, "Thinking");
        let request = CompletionRequest {
            system: Some(system.clone()),
            messages: messages.clone(),
            model: options.model.clone(),
            max_tokens: options.max_tokens,
            tools: definitions.clone(),
            ..CompletionRequest::default()
        };
        let completion = match work.generate(turn, request).await {
            Ok(completion) => completion,
            // A model that refuses tools on the first call (an Ollama model without tool
            // support): answer with the pipeline instead.
            Err(message) if round == 0 && turn.answer.is_empty() && refuses_tools(&message) => {
                turn.notice(format!(
                    "The model refused tool calls ({message}); answering with the fixed pipeline."
                ));
                return crate::pipeline::answer(work, turn).await;
            }
            Err(message) => return Err(message),
        };
        if completion.tool_calls.is_empty() {
            return Ok(());
        }
        turn.paragraph();
        messages.push(completion.message());
        let labels: Vec<String> = completion.tool_calls.iter().map(call_label).collect();
        turn.state(TurnState::CallingTools, labels.join("; "));
        let results = run_calls(work, turn, &completion.tool_calls, &mut done).await;
        for (call, result) in completion.tool_calls.iter().zip(results) {
            let (content, is_error) = match result {
                Ok(text) => (text, false),
                Err(text) => (text, true),
            };
            messages.push(Message::tool_result(call.id.clone(), content, is_error));
        }
    }

    // Out of rounds: one last call without tools, for the answer from what was found.
    turn.notice(format!(
        "Stopped calling tools after {} rounds (the limit); the answer uses what they found.",
        options.max_iterations
    ));
    messages.push(Message::user(
        "You have reached the limit of tool calls. Answer the question now from the tool \
         results above, without calling any tool.",
    ));
    turn.state(TurnState::Thinking, "Thinking");
    let request = CompletionRequest {
        system: Some(system),
        messages,
        model: options.model.clone(),
        max_tokens: options.max_tokens,
        ..CompletionRequest::default()
    };
    work.generate(turn, request).await.map(|_| ())
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

/// Run one round of calls at once; each result is the text the model reads (`Err`: an error it
/// should act on). Reports each call as it starts, and as it ends in the model's order.
async fn run_calls(
    work: &Work<'_>,
    turn: &mut Turn<'_, '_>,
    calls: &[LlmToolCall],
    done: &mut Vec<(String, Value, Result<String, String>)>,
) -> Vec<Result<String, String>> {
    let options = work.options;
    let registry = work.registry;
    let mut prepared = Vec::with_capacity(calls.len());
    for call in calls {
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
        turn.emit(ChatEvent::ToolCallStarted {
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: args
                .clone()
                .map(Value::Object)
                .unwrap_or(call.arguments.clone()),
            label: label.clone(),
        });
        prepared.push((call, tool, args, label));
    }

    let seen: &[(String, Value, Result<String, String>)] = done;
    let runs = prepared.iter().map(|(call, tool, args, _)| async move {
        let started = Instant::now();
        let outcome = match (tool, args) {
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
            (Some(tool), Ok(args)) => {
                let repeated = seen
                    .iter()
                    .find(|(name, a, _)| name == tool && a == &Value::Object(args.clone()));
                match repeated {
                    Some((_, _, result)) => Err(format!(
                        "you already made this exact call in this turn; its result was: {}. \
                         Use it, or answer now.",
                        match result {
                            Ok(text) | Err(text) => text,
                        }
                    )),
                    None => work
                        .run_tool(tool, args.clone())
                        .await
                        .map_err(|e| format!("{}: {e}", call.name)),
                }
            }
        };
        (outcome, started.elapsed().as_millis() as u64)
    });
    let outcomes = join_all(runs).await;

    let mut results = Vec::with_capacity(calls.len());
    for ((call, tool, args, label), (outcome, duration_ms)) in prepared.into_iter().zip(outcomes) {
        turn.timings.retrieval_ms += duration_ms;
        let arguments = args
            .as_ref()
            .map(|a| Value::Object(a.clone()))
            .unwrap_or(call.arguments.clone());
        let (record, result) = match outcome {
            Ok((output, usage)) => {
                if let Some(usage) = usage {
                    turn.usage.add(&usage);
                }
                let tool = tool.unwrap_or_default();
                let model_view = numbered(turn, tool, &arguments, &output);
                let text = tools::result_for_model(&model_view);
                let kept = (output.to_string().len() <= MAX_KEPT_OUTPUT).then(|| output.clone());
                let record = ChatToolCall {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    arguments: arguments.clone(),
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
                    arguments: arguments.clone(),
                    label,
                    ok: false,
                    summary: message.clone(),
                    output: None,
                    duration_ms,
                };
                (record, Err(message))
            }
        };
        if let Some(tool) = tool {
            done.push((tool.to_string(), arguments, result.clone()));
        }
        turn.tool_calls.push(record.clone());
        turn.emit(ChatEvent::ToolCallFinished { call: record });
        results.push(result);
    }
    results
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
