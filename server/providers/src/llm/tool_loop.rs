//! The tool loop, one owner for chat's agent mode and the workflow `agent` step: ask the model
//! with tools, run the calls it makes (each round's calls at once), hand their results back, until
//! it answers without calling a tool or the round limit is reached — then one last call without
//! tools, for the answer from what was found. A call repeated exactly is answered from what it
//! returned before, never run again.
//!
//! What a caller does around that is its own: how it checks and reports a call ([`Host`]), what
//! running one means ([`Runner`]), and what it makes of the answer.

use super::{Completion, CompletionRequest, LlmToolCall, Message};
use futures_util::future::join_all;
use serde_json::{Map, Value, json};
use std::future::Future;
use std::time::Instant;

/// A tool result longer than this (as JSON) is cut before the model reads it.
pub const MAX_RESULT_FOR_MODEL: usize = 12 * 1024;

/// What the model is told when the round limit is reached.
pub const LIMIT_REACHED: &str = "You have reached the limit of tool calls. Answer the question \
                                 now from the tool results above, without calling any tool.";

/// A call that may run: the tool it names (as the host knows it) and its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Ready {
    pub tool: String,
    pub arguments: Map<String, Value>,
}

/// The caller's side of the loop, called in order (never concurrently).
pub trait Host: Send {
    /// What the host keeps about a call between [`Host::begin`] and [`Host::end`].
    type Pending: Send;
    /// What running a call gives back (see [`Runner`]).
    type Output: Send;
    type Error: Send;

    /// One model call: the host streams or reports it as it likes and counts its usage.
    fn complete(
        &mut self,
        request: CompletionRequest,
    ) -> impl Future<Output = Result<Completion, Self::Error>> + Send;

    /// The model asked for the calls of `completion`; none has started.
    fn calling(&mut self, completion: &Completion) {
        let _ = completion;
    }

    /// Check a call the model made: `Ok` when it may run, else the error the model gets
    /// (an unknown or unoffered tool, arguments that are not an object) and it never runs.
    fn begin(&mut self, call: &LlmToolCall) -> (Self::Pending, Result<Ready, String>);

    /// How a call ended, taking `duration_ms`; returns the text the model reads (`Err`: an
    /// error it should act on).
    fn end(
        &mut self,
        call: &LlmToolCall,
        pending: Self::Pending,
        outcome: Result<Self::Output, String>,
        duration_ms: u64,
    ) -> Result<String, String>;

    /// The round limit is reached: the model is asked next for its answer, without tools.
    fn limit_reached(&mut self, rounds: usize) {
        let _ = rounds;
    }
}

/// Runs the calls a [`Host`] let through; the calls of one round run at once.
pub trait Runner: Sync {
    type Output: Send;

    fn run(
        &self,
        call: &LlmToolCall,
        ready: &Ready,
    ) -> impl Future<Output = Result<Self::Output, String>> + Send;
}

/// How the loop ended with an answer.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The answer: the model's last completion, which called no tool.
    pub completion: Completion,
    /// The conversation up to the answer (the answer not included).
    pub messages: Vec<Message>,
    /// Rounds of tool calls made.
    pub rounds: usize,
    /// The round limit was reached and the answer was asked for without tools.
    pub stopped: bool,
}

/// A model call failed: its error, and the round it failed in (0: the first call).
#[derive(Debug)]
pub struct Failed<E> {
    pub error: E,
    pub round: usize,
}

/// Ask the model `request` (its messages the conversation so far, its tools those offered) and
/// run the calls it makes, for at most `max_rounds` rounds.
pub async fn run<H, R>(
    host: &mut H,
    runner: &R,
    request: CompletionRequest,
    max_rounds: usize,
) -> Result<Finished, Failed<H::Error>>
where
    H: Host,
    R: Runner<Output = H::Output>,
{
    let mut messages = request.messages.clone();
    let mut done = Memory::default();
    for round in 0..max_rounds {
        let asked = CompletionRequest {
            messages: messages.clone(),
            ..request.clone()
        };
        let completion = host
            .complete(asked)
            .await
            .map_err(|error| Failed { error, round })?;
        if completion.tool_calls.is_empty() {
            return Ok(Finished {
                completion,
                messages,
                rounds: round,
                stopped: false,
            });
        }
        host.calling(&completion);
        messages.push(completion.message());
        let results = run_round(host, runner, &completion.tool_calls, &mut done).await;
        for (call, result) in completion.tool_calls.iter().zip(results) {
            let (content, is_error) = match result {
                Ok(text) => (text, false),
                Err(text) => (text, true),
            };
            messages.push(Message::tool_result(call.id.clone(), content, is_error));
        }
    }

    // Out of rounds: one last call without tools, for the answer from what was found.
    host.limit_reached(max_rounds);
    messages.push(Message::user(LIMIT_REACHED));
    let last = CompletionRequest {
        system: request.system,
        messages: messages.clone(),
        model: request.model,
        temperature: request.temperature,
        max_tokens: request.max_tokens,
        tools: Vec::new(),
        response_format: request.response_format,
    };
    let completion = host.complete(last).await.map_err(|error| Failed {
        error,
        round: max_rounds,
    })?;
    Ok(Finished {
        completion,
        messages,
        rounds: max_rounds,
        stopped: true,
    })
}

/// Calls already made and what the model read of them.
#[derive(Default)]
struct Memory(Vec<(Ready, Result<String, String>)>);

impl Memory {
    fn recall(&self, ready: &Ready) -> Option<String> {
        self.0.iter().find(|(r, _)| r == ready).map(|(_, result)| {
            let (Ok(text) | Err(text)) = result;
            format!(
                "you already made this exact call in this turn; its result was: {text}. Use it, \
                 or answer now."
            )
        })
    }
}

/// Run one round: check every call in order, run those let through at once (a call made
/// before is answered from memory), then end each in the model's order.
async fn run_round<H, R>(
    host: &mut H,
    runner: &R,
    calls: &[LlmToolCall],
    done: &mut Memory,
) -> Vec<Result<String, String>>
where
    H: Host,
    R: Runner<Output = H::Output>,
{
    let (pending, ready): (Vec<_>, Vec<_>) = calls.iter().map(|call| host.begin(call)).unzip();
    let seen = &*done;
    let runs = calls.iter().zip(&ready).map(|(call, ready)| async move {
        let started = Instant::now();
        let outcome = match ready {
            Err(refused) => Err(refused.clone()),
            Ok(ready) => match seen.recall(ready) {
                Some(repeated) => Err(repeated),
                None => runner.run(call, ready).await,
            },
        };
        (outcome, started.elapsed().as_millis() as u64)
    });
    let outcomes = join_all(runs).await;

    let mut results = Vec::with_capacity(calls.len());
    let ended = calls.iter().zip(pending).zip(ready).zip(outcomes);
    for (((call, pending), ready), (outcome, duration_ms)) in ended {
        let result = host.end(call, pending, outcome, duration_ms);
        if let Ok(ready) = ready {
            done.0.push((ready, result.clone()));
        }
        results.push(result);
    }
    results
}

/// A tool's output as the model reads it: compact JSON, embeddings left out, cut to
/// [`MAX_RESULT_FOR_MODEL`].
pub fn result_for_model(output: &Value) -> String {
    let mut shown = output.clone();
    drop_vectors(&mut shown);
    cut(&shown.to_string(), MAX_RESULT_FOR_MODEL)
}

/// `text` cut to at most `max` bytes, ending in "…" when it was cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Long arrays of numbers (embeddings) tell the model nothing; keep their length only.
fn drop_vectors(value: &mut Value) {
    match value {
        Value::Array(items) if items.len() > 16 && items.iter().all(Value::is_number) => {
            *value = json!(format!("[{} numbers]", items.len()));
        }
        Value::Array(items) => items.iter_mut().for_each(drop_vectors),
        Value::Object(map) => map.values_mut().for_each(drop_vectors),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
