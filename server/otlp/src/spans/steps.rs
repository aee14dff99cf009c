//! Step spans, from `step_started` to how the step ended (a step that never started — skipped,
//! or cancelled before it began — is a zero-length span), with a span per attempt when the step
//! was retried and per tool call when it was an agent.

use super::{End, Key, Level, Open, RunSpans, TEXT_MAX};
use crate::attributes;
use opentelemetry::KeyValue;
use opentelemetry::trace::Status;
use opentelemetry_sdk::trace::{IdGenerator, SpanData};
use serde_json::Value;
use std::time::{Duration, SystemTime};
use vai_workflow::Usage;
use vai_workflow::value::truncate_chars;

impl RunSpans {
    pub(super) fn step_started(
        &mut self,
        level: &Level,
        step_id: &str,
        name: &str,
        tool: &str,
        now: SystemTime,
    ) -> Vec<SpanData> {
        let key = Key::Step(level.clone(), step_id.to_string());
        let ended = self
            .end(&key, now, End::new(Status::Unset, "unfinished"))
            .into_iter()
            .collect();
        self.start_step(level, step_id, name, tool, now);
        ended
    }

    fn start_step(
        &mut self,
        level: &[String],
        step_id: &str,
        name: &str,
        tool: &str,
        now: SystemTime,
    ) -> Key {
        let parent = self.run_span(level, now);
        let mut attributes = vec![KeyValue::new("vai.step.id", step_id.to_string())];
        if !tool.is_empty() {
            attributes.push(KeyValue::new("vai.step.tool", tool.to_string()));
        }
        if !name.is_empty() && name != step_id {
            attributes.push(KeyValue::new("vai.step.name", name.to_string()));
        }
        let key = Key::Step(level.to_vec(), step_id.to_string());
        self.start(
            key.clone(),
            parent,
            format!("step {step_id}"),
            attributes,
            now,
        );
        if let Some(step) = self.open.get_mut(&key) {
            step.tool = tool.to_string();
        }
        key
    }

    /// Step `step_id`'s key, its span opened now when it never started.
    fn step_key(&mut self, level: &[String], step_id: &str, now: SystemTime) -> Key {
        let key = Key::Step(level.to_vec(), step_id.to_string());
        if self.open.contains_key(&key) {
            return key;
        }
        self.start_step(level, step_id, "", "", now)
    }

    #[expect(clippy::too_many_arguments, reason = "the fields of `step_completed`")]
    pub(super) fn step_completed(
        &mut self,
        level: &[String],
        step_id: &str,
        summary: &str,
        usage: Option<&Usage>,
        backend: Option<&str>,
        entry: &Value,
        now: SystemTime,
    ) -> Vec<SpanData> {
        let key = self.step_key(level, step_id, now);
        let tool = self
            .open
            .get(&key)
            .map(|o| o.tool.clone())
            .unwrap_or_default();
        let output = entry.get("output");
        let mut ended = Vec::new();
        if tool == "agent" {
            ended.extend(self.tool_calls(&key, output, now));
        }
        let mut end = End::new(Status::Ok, "completed").with(KeyValue::new(
            "vai.step.summary",
            truncate_chars(summary, TEXT_MAX),
        ));
        end.attributes
            .extend(attributes::completed(&tool, usage, backend, output));
        ended.extend(self.end_step(&key, now, end));
        ended
    }

    /// Step `step_id` failed, was cancelled or skipped: `end` says which.
    pub(super) fn step_ended(
        &mut self,
        level: &[String],
        step_id: &str,
        end: End,
        now: SystemTime,
    ) -> Vec<SpanData> {
        let key = self.step_key(level, step_id, now);
        self.end_step(&key, now, end)
    }

    /// The attempt of step `step_id` that just failed and will be retried after `delay_ms`.
    pub(super) fn retrying(
        &mut self,
        level: &[String],
        step_id: &str,
        attempt: u32,
        error: &str,
        delay_ms: u64,
        now: SystemTime,
    ) -> Option<SpanData> {
        let key = Key::Step(level.to_vec(), step_id.to_string());
        let id = self.ids.new_span_id();
        let step = self.open.get_mut(&key)?;
        let start = step.attempt_start.min(now);
        step.retries = attempt;
        step.attempt_start = now + Duration::from_millis(delay_ms);
        let error = truncate_chars(error, TEXT_MAX);
        let span = Open {
            attributes: vec![
                KeyValue::new("vai.step.id", step_id.to_string()),
                KeyValue::new("vai.attempt", i64::from(attempt)),
                KeyValue::new(
                    "vai.retry.delay_ms",
                    i64::try_from(delay_ms).unwrap_or(i64::MAX),
                ),
                KeyValue::new("vai.error", error.clone()),
                KeyValue::new("vai.step.status", "retried"),
            ],
            ..Open::new(id, step.id, format!("attempt {attempt}"), start)
        };
        Some(self.data(span, now, Status::error(error)))
    }

    /// Item `index` of `forEach` step `step_id`, whose tool call ended now after `duration_ms`:
    /// a span under the step's.
    pub(super) fn item_ended(
        &mut self,
        level: &[String],
        step_id: &str,
        index: usize,
        duration_ms: u64,
        error: Option<&str>,
        now: SystemTime,
    ) -> Option<SpanData> {
        let key = Key::Step(level.to_vec(), step_id.to_string());
        let id = self.ids.new_span_id();
        let step = self.open.get(&key)?;
        let start = now
            .checked_sub(Duration::from_millis(duration_ms))
            .unwrap_or(now)
            .max(step.start);
        let mut attributes = vec![
            KeyValue::new("vai.step.id", step_id.to_string()),
            KeyValue::new(
                "vai.foreach.index",
                i64::try_from(index).unwrap_or(i64::MAX),
            ),
            KeyValue::new(
                "vai.step.status",
                if error.is_some() {
                    "failed"
                } else {
                    "completed"
                },
            ),
        ];
        let status = match error {
            Some(e) => {
                let e = truncate_chars(e, TEXT_MAX);
                attributes.push(KeyValue::new("vai.error", e.clone()));
                Status::error(e)
            }
            None => Status::Ok,
        };
        let span = Open {
            attributes,
            ..Open::new(id, step.id, format!("item {index}"), start)
        };
        Some(self.data(span, now, status))
    }

    /// End step `key` with `end`, and its last attempt when it was retried.
    fn end_step(&mut self, key: &Key, now: SystemTime, end: End) -> Vec<SpanData> {
        let mut ended = Vec::new();
        let id = self.ids.new_span_id();
        if let Some(step) = self.open.get(key).filter(|s| s.retries > 0) {
            let attempt = step.retries + 1;
            let span = Open {
                attributes: vec![
                    KeyValue::new("vai.attempt", i64::from(attempt)),
                    KeyValue::new("vai.step.status", end.state),
                ],
                ..Open::new(
                    id,
                    step.id,
                    format!("attempt {attempt}"),
                    step.attempt_start.min(now),
                )
            };
            ended.push(self.data(span, now, end.status.clone()));
        }
        ended.extend(self.end(key, now, end));
        ended
    }

    /// The spans of an agent step's tool calls, from its output's `toolCalls`. The output gives
    /// each call's duration, not its start: they are laid end to end from the step's start, so
    /// their lengths are real and their places approximate.
    fn tool_calls(&mut self, key: &Key, output: Option<&Value>, now: SystemTime) -> Vec<SpanData> {
        let Some(step) = self.open.get(key) else {
            return Vec::new();
        };
        let (parent, mut at) = (step.id, step.start);
        let calls = output
            .and_then(|o| o.get("toolCalls"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut ended = Vec::with_capacity(calls.len());
        for call in calls {
            let name = call.get("name").and_then(Value::as_str).unwrap_or("tool");
            let ok = call.get("ok").and_then(Value::as_bool).unwrap_or(false);
            let summary = call
                .get("summary")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let took = call.get("durationMs").and_then(Value::as_u64).unwrap_or(0);
            let end = (at + Duration::from_millis(took)).min(now);
            let summary = truncate_chars(summary, TEXT_MAX);
            let span = Open {
                attributes: vec![
                    KeyValue::new("gen_ai.operation.name", "execute_tool"),
                    KeyValue::new("gen_ai.tool.name", name.to_string()),
                    KeyValue::new("vai.tool_call.ok", ok),
                    KeyValue::new("vai.tool_call.summary", summary.clone()),
                ],
                ..Open::new(
                    self.ids.new_span_id(),
                    parent,
                    format!("execute_tool {name}"),
                    at.min(end),
                )
            };
            let status = if ok {
                Status::Ok
            } else {
                Status::error(summary)
            };
            ended.push(self.data(span, end, status));
            at = end;
        }
        ended
    }
}
