//! Step-through runs: where they pause, what a pause shows, Next and Continue, cancelling while
//! paused, the idle limit, pace, and the steps that go on running during a pause. Each test drives
//! the run as a resumer would: from outside, reading the event stream.

use super::*;
use crate::compile::{Mode, compile};
use crate::events::{ResumeAction, RunEvent, RunStatus};
use crate::test_support::registry;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant as Clock;
use tokio_util::sync::CancellationToken;

/// A step-through run going on in a task of its own, and the events it has sent so far.
struct Driven {
    events: mpsc::UnboundedReceiver<(Clock, RunEvent)>,
    run: JoinHandle<RunResult>,
    stepping: Stepping,
    cancel: CancellationToken,
    /// Compact log: "pause a", "pause a (breakpoint)", "resume a next", "start a", "done a",
    /// "skip a", "fail a", "cancel a", "end <status>".
    log: Vec<String>,
    /// Every event with the (tokio) time it was sent.
    timed: Vec<(Clock, RunEvent)>,
}

fn settings(pause_each: bool, breakpoints: &[&str]) -> StepThrough {
    StepThrough {
        pause_each,
        breakpoints: breakpoints.iter().map(|b| b.to_string()).collect(),
        pace_ms: 0,
    }
}

fn drive(wf: Value, settings: StepThrough) -> Driven {
    drive_with(wf, settings, PAUSE_IDLE_LIMIT)
}

fn drive_with(wf: Value, settings: StepThrough, idle_limit: Duration) -> Driven {
    let reg = registry();
    let c = compile(&wf, &reg, Mode::Strict);
    let plan = c
        .plan
        .unwrap_or_else(|| panic!("invalid: {:#?}", c.diagnostics));
    let (tx, events) = mpsc::unbounded_channel();
    let sink = move |e: RunEvent| {
        let _ = tx.send((Clock::now(), e));
    };
    let stepping = Stepping::new(settings, idle_limit);
    let cancel = CancellationToken::new();
    let options = RunOptions {
        inputs: json!({"q": "hi", "xs": [1, 2]})
            .as_object()
            .cloned()
            .unwrap(),
        cancel: cancel.clone(),
        stepping: Some(stepping.clone()),
        ..RunOptions::default()
    };
    let run = tokio::spawn(async move {
        run(plan, Arc::new(reg), options, Arc::new(sink))
            .await
            .expect("inputs ok")
    });
    Driven {
        events,
        run,
        stepping,
        cancel,
        log: Vec::new(),
        timed: Vec::new(),
    }
}

fn line(e: &RunEvent) -> Option<String> {
    Some(match e {
        RunEvent::Paused {
            step_id,
            breakpoint: true,
            ..
        } => format!("pause {step_id} (breakpoint)"),
        RunEvent::Paused { step_id, .. } => format!("pause {step_id}"),
        RunEvent::Resumed {
            step_id, action, ..
        } => {
            let action = match action {
                ResumeAction::Next => "next",
                ResumeAction::Continue => "continue",
            };
            format!("resume {step_id} {action}")
        }
        RunEvent::StepStarted { step_id, .. } => format!("start {step_id}"),
        RunEvent::StepCompleted { step_id, .. } => format!("done {step_id}"),
        RunEvent::StepSkipped { step_id, .. } => format!("skip {step_id}"),
        RunEvent::StepFailed { step_id, .. } => format!("fail {step_id}"),
        RunEvent::StepCancelled { step_id } => format!("cancel {step_id}"),
        RunEvent::RunFinished { status, .. } => format!("end {status:?}").to_lowercase(),
        _ => return None,
    })
}

impl Driven {
    /// The next event's log line (events without one are only kept in `timed`).
    async fn next_line(&mut self) -> String {
        loop {
            let (at, e) = self.events.recv().await.expect("the run ended early");
            let line = line(&e);
            self.timed.push((at, e));
            if let Some(line) = line {
                self.log.push(line.clone());
                return line;
            }
        }
    }

    /// Read events until the run pauses; the step it pauses before.
    async fn until_paused(&mut self) -> String {
        loop {
            if let Some(step) = self.next_line().await.strip_prefix("pause ") {
                let step = step.trim_end_matches(" (breakpoint)").to_string();
                assert_eq!(self.stepping.paused().as_deref(), Some(step.as_str()));
                return step;
            }
        }
    }

    fn resume(&self, action: ResumeAction) {
        self.stepping.resume(action).expect("the run is paused");
    }

    /// Every event to the end, and the result.
    async fn finish(mut self) -> (RunResult, Vec<String>, Vec<(Clock, RunEvent)>) {
        while let Some((at, e)) = self.events.recv().await {
            if let Some(line) = line(&e) {
                self.log.push(line);
            }
            self.timed.push((at, e));
        }
        (self.run.await.unwrap(), self.log, self.timed)
    }
}

fn chain(ids: &[&str]) -> Value {
    let steps: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(n, id)| match n {
            0 => json!({"id": id, "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}}),
            _ => json!({"id": id, "tool": "echo", "inputs": {"text": format!("{{{{ {}.output.text }}}}", ids[n - 1])}}),
        })
        .collect();
    json!({"name": "t", "steps": steps})
}

#[tokio::test(start_paused = true)]
async fn pause_each_waits_before_every_step_and_next_runs_one() {
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}},
        {"id": "never", "tool": "echo", "condition": "{{ a.output.text == 'no' }}", "inputs": {}},
        {"id": "b", "tool": "echo", "inputs": {"text": "{{ a.output.text }}!"}, "dependsOn": ["never"]}
    ]});
    let mut run = drive(wf, settings(true, &[]));
    assert_eq!(run.until_paused().await, "a");
    run.resume(ResumeAction::Next);
    // A skipped step is decided without a pause.
    assert_eq!(run.until_paused().await, "b");
    run.resume(ResumeAction::Next);
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(
        log,
        [
            "pause a",
            "resume a next",
            "start a",
            "done a",
            "skip never",
            "pause b",
            "resume b next",
            "start b",
            "done b",
            "end completed"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_pause_shows_the_inputs_the_step_will_get() {
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}", "n": 2}},
        {"id": "each", "tool": "echo", "forEach": "{{ inputs.xs }}", "inputs": {"x": "{{ item }}", "from": "{{ a.output.text }}"}}
    ]});
    let mut run = drive(wf, settings(true, &[]));
    run.until_paused().await;
    let RunEvent::Paused { inputs, name, .. } = &run.timed.last().unwrap().1 else {
        panic!("not paused")
    };
    assert_eq!(name, "a");
    assert_eq!(
        inputs.as_deref(),
        Some(&json!({"text": "hi", "n": 2})),
        "resolved, as the tool gets them"
    );
    run.resume(ResumeAction::Next);
    run.until_paused().await;
    let RunEvent::Paused { inputs, .. } = &run.timed.last().unwrap().1 else {
        panic!("not paused")
    };
    // A forEach step shows each element's inputs, as a finished one records them.
    assert_eq!(
        inputs.as_deref(),
        Some(&json!([{"x": 1, "from": "hi"}, {"x": 2, "from": "hi"}]))
    );
    run.resume(ResumeAction::Continue);
    assert_eq!(run.finish().await.0.status, RunStatus::Completed);
}

#[tokio::test(start_paused = true)]
async fn breakpoints_pause_only_at_their_steps() {
    let mut run = drive(chain(&["a", "b", "c"]), settings(false, &["b"]));
    assert_eq!(run.until_paused().await, "b");
    run.resume(ResumeAction::Continue);
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(
        log,
        [
            "start a",
            "done a",
            "pause b (breakpoint)",
            "resume b continue",
            "start b",
            "done b",
            "start c",
            "done c",
            "end completed"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn continue_runs_to_the_next_breakpoint_and_next_steps_from_there() {
    let mut run = drive(chain(&["a", "b", "c", "d", "e"]), settings(true, &["d"]));
    assert_eq!(run.until_paused().await, "a");
    run.resume(ResumeAction::Continue);
    assert_eq!(run.until_paused().await, "d");
    assert!(
        run.log.contains(&"done c".to_string()),
        "b and c ran without pausing: {:?}",
        run.log
    );
    run.resume(ResumeAction::Next);
    // Next from a breakpoint pauses before every step again.
    assert_eq!(run.until_paused().await, "e");
    run.resume(ResumeAction::Continue);
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Completed);
    let pauses: Vec<&String> = log.iter().filter(|l| l.starts_with("pause")).collect();
    assert_eq!(pauses, ["pause a", "pause d (breakpoint)", "pause e"]);
}

#[tokio::test(start_paused = true)]
async fn breakpoints_can_change_at_a_resume() {
    let mut run = drive(chain(&["a", "b", "c"]), settings(true, &[]));
    assert_eq!(run.until_paused().await, "a");
    run.stepping
        .resume(Resume {
            action: ResumeAction::Continue,
            breakpoints: Some(vec!["c".to_string(), "c".to_string()]),
        })
        .unwrap();
    assert_eq!(run.until_paused().await, "c");
    let resumed = run.timed.iter().find_map(|(_, e)| match e {
        RunEvent::Resumed { breakpoints, .. } => Some(breakpoints.clone()),
        _ => None,
    });
    assert_eq!(resumed, Some(Some(vec!["c".to_string()])));
    assert_eq!(run.stepping.settings().breakpoints, ["c"]);
    run.resume(ResumeAction::Continue);
    assert_eq!(run.finish().await.0.status, RunStatus::Completed);
}

#[tokio::test(start_paused = true)]
async fn ready_steps_queue_behind_the_paused_one_and_pause_in_turn() {
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"delayMs": 100}},
        {"id": "b", "tool": "echo", "inputs": {"delayMs": 100}},
        {"id": "c", "tool": "echo", "inputs": {}, "dependsOn": ["a", "b"]}
    ]});
    let mut run = drive(wf, settings(true, &[]));
    assert_eq!(run.until_paused().await, "a");
    run.resume(ResumeAction::Next);
    // b pauses at once, while a runs.
    assert_eq!(run.until_paused().await, "b");
    assert_eq!(run.log, ["pause a", "resume a next", "start a", "pause b"]);
    run.resume(ResumeAction::Next);
    assert_eq!(run.until_paused().await, "c");
    run.resume(ResumeAction::Next);
    let (r, _, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Completed);
}

#[tokio::test(start_paused = true)]
async fn steps_already_running_complete_while_another_is_paused() {
    let wf = json!({"name": "t", "steps": [
        {"id": "slow", "tool": "echo", "inputs": {"delayMs": 1000}},
        {"id": "b", "tool": "echo", "inputs": {}}
    ]});
    let mut run = drive(wf, settings(false, &["b"]));
    assert_eq!(run.until_paused().await, "b");
    // Nobody resumes; the slow step finishes all the same.
    assert_eq!(run.next_line().await, "done slow");
    assert_eq!(run.stepping.paused().as_deref(), Some("b"));
    run.resume(ResumeAction::Next);
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(
        log,
        [
            "start slow",
            "pause b (breakpoint)",
            "done slow",
            "resume b next",
            "start b",
            "done b",
            "end completed"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn cancelling_while_paused_ends_the_run_cancelled() {
    let wf = json!({"name": "t", "steps": [
        {"id": "slow", "tool": "echo", "inputs": {"delayMs": 60000}},
        {"id": "b", "tool": "echo", "inputs": {}},
        {"id": "c", "tool": "echo", "inputs": {}, "dependsOn": ["b"]}
    ]});
    let mut run = drive(wf, settings(false, &["b"]));
    assert_eq!(run.until_paused().await, "b");
    run.cancel.cancel();
    let stepping = run.stepping.clone();
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Cancelled);
    assert_eq!(r.error.as_deref(), Some("the run was cancelled"));
    // The paused step never started: it is reported cancelled with the running ones.
    assert_eq!(
        log,
        [
            "start slow",
            "pause b (breakpoint)",
            "cancel slow",
            "cancel b",
            "end cancelled"
        ]
    );
    assert_eq!(r.steps[1].status, StepOutcome::Cancelled);
    assert_eq!(r.steps[2].status, StepOutcome::Pending);
    assert_eq!(stepping.resume(ResumeAction::Next), Err(NotPaused));
}

#[tokio::test(start_paused = true)]
async fn a_failure_while_paused_cancels_the_paused_step() {
    let wf = json!({"name": "t", "steps": [
        {"id": "bad", "tool": "broken", "inputs": {"delayMs": 10}},
        {"id": "b", "tool": "echo", "inputs": {}}
    ]});
    let mut run = drive(wf, settings(false, &["b"]));
    assert_eq!(run.until_paused().await, "b");
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Failed);
    assert_eq!(
        log,
        [
            "start bad",
            "pause b (breakpoint)",
            "fail bad",
            "cancel b",
            "end failed"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_pause_nobody_ends_cancels_the_run_after_the_idle_limit() {
    let mut run = drive(chain(&["a", "b"]), settings(true, &[]));
    assert_eq!(run.until_paused().await, "a");
    run.resume(ResumeAction::Next);
    assert_eq!(run.until_paused().await, "b");
    let paused_at = run.timed.last().unwrap().0;
    let (r, log, timed) = run.finish().await;
    assert_eq!(r.status, RunStatus::Cancelled);
    assert_eq!(
        r.error.as_deref(),
        Some("the run was paused for 10 minutes without Next or Continue")
    );
    assert_eq!(log[log.len() - 2..], ["cancel b", "end cancelled"]);
    let ended = timed.last().unwrap().0;
    assert_eq!(ended - paused_at, PAUSE_IDLE_LIMIT);
}

#[tokio::test(start_paused = true)]
async fn the_idle_limit_can_be_shorter() {
    let run = drive_with(
        chain(&["a"]),
        settings(true, &[]),
        Duration::from_millis(50),
    );
    let (r, _, _) = run.finish().await;
    assert_eq!(
        r.error.as_deref(),
        Some("the run was paused for 50 ms without Next or Continue")
    );
}

#[tokio::test(start_paused = true)]
async fn pace_holds_each_step_s_report_back_without_changing_its_time() {
    let pace = Duration::from_millis(500);
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}},
        {"id": "c", "tool": "conditional", "inputs": {"condition": "{{ a.output.text == 'hi' }}", "then": ["b"]}},
        {"id": "b", "tool": "echo", "inputs": {"delayMs": 800}}
    ]});
    let paced = StepThrough {
        pace_ms: 500,
        ..settings(false, &[])
    };
    let (r, log, timed) = drive(wf, paced).finish().await;
    assert_eq!(r.status, RunStatus::Completed);
    assert!(!log.iter().any(|l| l.starts_with("pause")), "{log:?}");
    let at = |kind: &str, id: &str| {
        timed
            .iter()
            .find(|(_, e)| line(e).as_deref() == Some(&format!("{kind} {id}")))
            .map(|(at, _)| *at)
            .unwrap()
    };
    for id in ["a", "c", "b"] {
        let shown = at("done", id) - at("start", id);
        assert!(shown >= pace, "{id} was reported after {shown:?}");
    }
    // A step slower than the pace is not held back further.
    assert_eq!(
        at("done", "b") - at("start", "b"),
        Duration::from_millis(800)
    );
    // The reported duration is the step's own time.
    assert!(r.steps[0].duration_ms < 500, "{}", r.steps[0].duration_ms);
}

#[tokio::test(start_paused = true)]
async fn cancelling_during_the_pace_stops_the_step() {
    let paced = StepThrough {
        pace_ms: 10_000,
        ..settings(false, &[])
    };
    let mut run = drive(chain(&["a", "b"]), paced);
    assert_eq!(run.next_line().await, "start a");
    run.cancel.cancel();
    let (r, log, _) = run.finish().await;
    assert_eq!(r.status, RunStatus::Cancelled);
    assert_eq!(log, ["start a", "cancel a", "end cancelled"]);
}

#[tokio::test]
async fn events_put_pauses_on_the_wire_as_paused_and_resumed() {
    let paused = RunEvent::Paused {
        step_id: "a".into(),
        name: "A".into(),
        tool: "echo".into(),
        breakpoint: true,
        inputs: Some(Arc::new(json!({"text": "hi"}))),
    };
    assert_eq!(
        serde_json::to_value(&paused).unwrap(),
        json!({"type": "paused", "stepId": "a", "name": "A", "tool": "echo", "breakpoint": true})
    );
    let resumed = RunEvent::Resumed {
        step_id: "a".into(),
        action: ResumeAction::Continue,
        breakpoints: None,
    };
    assert_eq!(
        serde_json::to_value(&resumed).unwrap(),
        json!({"type": "resumed", "stepId": "a", "action": "continue"})
    );
}

#[tokio::test(start_paused = true)]
async fn an_endless_idle_limit_waits_as_long_as_it_takes() {
    let mut run = drive_with(chain(&["a"]), settings(true, &[]), Duration::MAX);
    assert_eq!(run.until_paused().await, "a");
    tokio::time::sleep(Duration::from_secs(365 * 24 * 3600)).await;
    assert_eq!(run.stepping.paused().as_deref(), Some("a"));
    run.resume(ResumeAction::Next);
    assert_eq!(run.finish().await.0.status, RunStatus::Completed);
}
