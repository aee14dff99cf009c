//! Run spans — the top-level run's is the trace's root; a child run's sits under the
//! `workflow` step (or `forEach` item) that ran it — and the compensations a run ends with.

use super::{End, Key, Level, RunSpans, TEXT_MAX};
use crate::attributes;
use opentelemetry::KeyValue;
use opentelemetry::trace::{SpanId, Status};
use opentelemetry_sdk::trace::SpanData;
use std::time::SystemTime;
use vai_workflow::exec::durable::split_segment;
use vai_workflow::value::truncate_chars;
use vai_workflow::{RunStatus, Usage};

impl RunSpans {
    pub(super) fn run_started(
        &mut self,
        level: &Level,
        workflow: &str,
        total_steps: usize,
        now: SystemTime,
    ) -> Vec<SpanData> {
        let key = Key::Run(level.clone());
        // A run that starts again at the same place (a resumed leg) ends the one before.
        let ended: Vec<SpanData> = self
            .end(&key, now, End::new(Status::Unset, "unfinished"))
            .into_iter()
            .collect();
        if level.is_empty() {
            self.workflow = workflow.to_string();
        }
        self.start_run(level, workflow, now);
        if let Some(run) = self.open.get_mut(&key) {
            let steps = i64::try_from(total_steps).unwrap_or(i64::MAX);
            run.attributes
                .push(KeyValue::new("vai.run.total_steps", steps));
        }
        ended
    }

    /// Open run `level`'s span: the root for the top-level run, else under the `workflow` step
    /// (or the `forEach` item) that runs it.
    fn start_run(&mut self, level: &[String], workflow: &str, now: SystemTime) -> SpanId {
        let mut attributes = vec![KeyValue::new("vai.workflow.name", workflow.to_string())];
        let (parent, name) = match level.split_last() {
            None => {
                attributes.insert(0, KeyValue::new("vai.run.id", self.run_id.clone()));
                (SpanId::INVALID, format!("run {workflow}"))
            }
            Some((segment, above)) => {
                let (step_id, item) = split_segment(segment);
                attributes.push(KeyValue::new("vai.parent.step", step_id.to_string()));
                let step = Key::Step(above.to_vec(), step_id.to_string());
                let parent = match self.open.get(&step) {
                    Some(step) => step.id,
                    None => self.run_span(above, now),
                };
                let name = match item {
                    Some(i) => {
                        let index = i64::try_from(i).unwrap_or(i64::MAX);
                        attributes.push(KeyValue::new("vai.foreach.index", index));
                        format!("run {workflow} [{i}]")
                    }
                    None => format!("run {workflow}"),
                };
                (parent, name)
            }
        };
        self.start(Key::Run(level.to_vec()), parent, name, attributes, now)
    }

    /// Run `level`'s span, opened now when its run did not say it started.
    pub(super) fn run_span(&mut self, level: &[String], now: SystemTime) -> SpanId {
        if let Some(run) = self.open.get(&Key::Run(level.to_vec())) {
            return run.id;
        }
        let workflow = if level.is_empty() {
            self.workflow.clone()
        } else {
            "workflow".to_string()
        };
        self.start_run(level, &workflow, now)
    }

    /// Run `level` ended: every span still open in it (or in a run under it) ends, then its own.
    pub(super) fn run_finished(
        &mut self,
        level: &[String],
        status: RunStatus,
        error: Option<&str>,
        usage: Option<&Usage>,
        now: SystemTime,
    ) -> Vec<SpanData> {
        let run_key = Key::Run(level.to_vec());
        self.run_span(level, now);
        let left = if status == RunStatus::Waiting {
            "waiting"
        } else {
            "unfinished"
        };
        let mut inside: Vec<Key> = self
            .open
            .keys()
            .filter(|k| **k != run_key && k.level().starts_with(level))
            .cloned()
            .collect();
        // Deepest first, so a child run ends before the step that ran it.
        inside.sort_by_key(|k| std::cmp::Reverse(k.level().len()));
        let mut ended: Vec<SpanData> = inside
            .iter()
            .filter_map(|k| self.end(k, now, End::new(Status::Unset, left)))
            .collect();
        let mut end = match (status, error) {
            (RunStatus::Completed, _) => End::new(Status::Ok, status.as_str()),
            (RunStatus::Failed, e) => End::failed(e.unwrap_or("the run failed"), status.as_str()),
            (_, Some(e)) => End::new(Status::Unset, status.as_str())
                .with(KeyValue::new("vai.error", truncate_chars(e, TEXT_MAX))),
            (_, None) => End::new(Status::Unset, status.as_str()),
        };
        if let Some(usage) = usage {
            end.attributes.extend(attributes::run_totals(usage));
        }
        ended.extend(self.end(&run_key, now, end));
        ended
    }

    /// The compensation of completed step `step_id` (with `tool`) starts.
    pub(super) fn compensating(
        &mut self,
        level: &[String],
        step_id: &str,
        tool: &str,
        now: SystemTime,
    ) {
        let parent = self.run_span(level, now);
        let key = Key::Compensation(level.to_vec(), step_id.to_string());
        let attributes = vec![
            KeyValue::new("vai.step.id", step_id.to_string()),
            KeyValue::new("vai.step.tool", tool.to_string()),
        ];
        let name = format!("compensate {step_id}");
        self.start(key, parent, name, attributes, now);
    }

    /// The compensation of step `step_id` ended.
    pub(super) fn compensated(
        &mut self,
        level: &[String],
        step_id: &str,
        ok: bool,
        error: Option<&str>,
        now: SystemTime,
    ) -> Option<SpanData> {
        let key = Key::Compensation(level.to_vec(), step_id.to_string());
        if !self.open.contains_key(&key) {
            let parent = self.run_span(level, now);
            let name = format!("compensate {step_id}");
            self.start(key.clone(), parent, name, Vec::new(), now);
        }
        let end = match ok {
            true => End::new(Status::Ok, "completed"),
            false => End::failed(error.unwrap_or("failed"), "failed"),
        };
        self.end(&key, now, end)
    }
}
