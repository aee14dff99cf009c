//! The span tree a run's events make, on a fake clock.

use super::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};
use vai_workflow::RunStatus;

fn at(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000) + Duration::from_millis(ms)
}

fn spans() -> RunSpans {
    RunSpans::new("run-1", InstrumentationScope::builder("vai").build())
}

/// Feed `events` at their times; every span they ended, in order.
fn feed(spans: &mut RunSpans, events: Vec<(u64, RunEvent)>) -> Vec<SpanData> {
    events
        .into_iter()
        .flat_map(|(ms, e)| spans.record(&e, at(ms)))
        .collect()
}

fn started(workflow: &str) -> RunEvent {
    RunEvent::RunStarted {
        workflow: workflow.into(),
        layers: Vec::new(),
        total_steps: 2,
    }
}

fn step(id: &str, tool: &str) -> RunEvent {
    RunEvent::StepStarted {
        step_id: id.into(),
        name: id.into(),
        tool: tool.into(),
    }
}

fn completed(id: &str, output: Value) -> RunEvent {
    RunEvent::StepCompleted {
        step_id: id.into(),
        duration_ms: 0,
        summary: "done".into(),
        usage: None,
        backend: None,
        entry: Arc::new(json!({ "output": output })),
        inputs: None,
    }
}

fn finished(status: RunStatus) -> RunEvent {
    RunEvent::RunFinished {
        status,
        duration_ms: 0,
        error: None,
        usage: None,
        output: None,
    }
}

fn child(step_id: &str, item: Option<usize>, event: RunEvent) -> RunEvent {
    RunEvent::Child {
        step_id: step_id.into(),
        item,
        event: Box::new(event),
    }
}

fn named<'a>(spans: &'a [SpanData], name: &str) -> &'a SpanData {
    spans
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no span {name} in {:?}", names(spans)))
}

fn names(spans: &[SpanData]) -> Vec<&str> {
    spans.iter().map(|s| s.name.as_ref()).collect()
}

fn attr(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| kv.value.to_string())
}

fn id(span: &SpanData) -> SpanId {
    span.span_context.span_id()
}

#[test]
fn a_run_is_a_root_span_with_a_span_per_step_at_the_events_times() {
    let mut s = spans();
    let trace = s.trace_id();
    let ended = feed(
        &mut s,
        vec![
            (0, started("two")),
            (5, step("a", "template")),
            (25, completed("a", json!({"text": "x"}))),
            (
                25,
                RunEvent::StepSkipped {
                    step_id: "b".into(),
                    reason: "condition false".into(),
                },
            ),
            (30, finished(RunStatus::Completed)),
        ],
    );
    assert_eq!(names(&ended), ["step a", "step b", "run two"]);
    let (run, a, b) = (&ended[2], &ended[0], &ended[1]);
    assert!(ended.iter().all(|s| s.span_context.trace_id() == trace));
    assert_eq!(run.parent_span_id, SpanId::INVALID);
    assert_eq!((run.start_time, run.end_time), (at(0), at(30)));
    assert_eq!(attr(run, "vai.run.id").as_deref(), Some("run-1"));
    assert_eq!(attr(run, "vai.workflow.name").as_deref(), Some("two"));
    assert_eq!(attr(run, "vai.run.status").as_deref(), Some("completed"));
    assert_eq!(run.status, Status::Ok);

    assert_eq!(a.parent_span_id, id(run));
    assert_eq!((a.start_time, a.end_time), (at(5), at(25)));
    assert_eq!(attr(a, "vai.step.id").as_deref(), Some("a"));
    assert_eq!(attr(a, "vai.step.tool").as_deref(), Some("template"));
    assert_eq!(attr(a, "vai.step.status").as_deref(), Some("completed"));

    assert_eq!(b.parent_span_id, id(run));
    assert_eq!((b.start_time, b.end_time), (at(25), at(25)));
    assert_eq!(attr(b, "vai.step.status").as_deref(), Some("skipped"));
    assert_eq!(
        attr(b, "vai.step.skip_reason").as_deref(),
        Some("condition false")
    );
    assert!(s.open.is_empty());
}

#[test]
fn a_retried_step_has_a_span_per_attempt() {
    let mut s = spans();
    let ended = feed(
        &mut s,
        vec![
            (0, started("w")),
            (10, step("fetch", "http")),
            (
                40,
                RunEvent::StepRetrying {
                    step_id: "fetch".into(),
                    attempt: 1,
                    error: "HTTP 503".into(),
                    delay_ms: 100,
                },
            ),
            (170, completed("fetch", json!({}))),
            (171, finished(RunStatus::Completed)),
        ],
    );
    assert_eq!(
        names(&ended),
        ["attempt 1", "attempt 2", "step fetch", "run w"]
    );
    let step = named(&ended, "step fetch");
    let (first, second) = (&ended[0], &ended[1]);
    assert_eq!(first.parent_span_id, id(step));
    assert_eq!((first.start_time, first.end_time), (at(10), at(40)));
    assert_eq!(first.status, Status::error("HTTP 503"));
    assert_eq!(attr(first, "vai.attempt").as_deref(), Some("1"));
    assert_eq!(second.parent_span_id, id(step));
    assert_eq!((second.start_time, second.end_time), (at(140), at(170)));
    assert_eq!(second.status, Status::Ok);
    assert_eq!((step.start_time, step.end_time), (at(10), at(170)));
}

#[test]
fn a_child_run_nests_under_its_workflow_step_however_deep() {
    let mut s = spans();
    let ended = feed(
        &mut s,
        vec![
            (0, started("trip")),
            (1, step("book", "workflow")),
            (2, child("book", None, started("book"))),
            (3, child("book", None, step("hold", "workflow"))),
            (4, child("book", None, child("hold", None, started("hold")))),
            (
                5,
                child("book", None, child("hold", None, step("seat", "echo"))),
            ),
            (
                6,
                child(
                    "book",
                    None,
                    child("hold", None, completed("seat", json!({}))),
                ),
            ),
            (
                7,
                child(
                    "book",
                    None,
                    child("hold", None, finished(RunStatus::Completed)),
                ),
            ),
            (8, child("book", None, completed("hold", json!({})))),
            (9, child("book", None, finished(RunStatus::Completed))),
            (10, completed("book", json!({}))),
            (11, finished(RunStatus::Completed)),
        ],
    );
    let root = named(&ended, "run trip");
    let book = named(&ended, "step book");
    let book_run = named(&ended, "run book");
    let hold = named(&ended, "step hold");
    let hold_run = named(&ended, "run hold");
    let seat = named(&ended, "step seat");
    assert_eq!(book.parent_span_id, id(root));
    assert_eq!(book_run.parent_span_id, id(book));
    assert_eq!(hold.parent_span_id, id(book_run));
    assert_eq!(hold_run.parent_span_id, id(hold));
    assert_eq!(seat.parent_span_id, id(hold_run));
    assert_eq!(attr(hold_run, "vai.parent.step").as_deref(), Some("hold"));
    assert_eq!(
        attr(book_run, "vai.run.id"),
        None,
        "only the root names the run"
    );
    assert_eq!((seat.start_time, seat.end_time), (at(5), at(6)));
    assert_eq!(ended.len(), 6);
}

#[test]
fn each_for_each_item_of_a_workflow_step_is_a_child_run_span() {
    let mut s = spans();
    let mut events = vec![(0, started("all")), (1, step("each", "workflow"))];
    for i in 0..2 {
        let t = 2 + i as u64 * 10;
        events.push((t, child("each", Some(i), started("one"))));
        events.push((t + 1, child("each", Some(i), step("x", "echo"))));
        events.push((t + 2, child("each", Some(i), completed("x", json!({})))));
        events.push((
            t + 3,
            child("each", Some(i), finished(RunStatus::Completed)),
        ));
    }
    events.push((30, completed("each", json!({}))));
    events.push((31, finished(RunStatus::Completed)));
    let ended = feed(&mut s, events);
    let each = named(&ended, "step each");
    for i in 0..2 {
        let item = named(&ended, &format!("run one [{i}]"));
        assert_eq!(item.parent_span_id, id(each));
        assert_eq!(attr(item, "vai.foreach.index"), Some(i.to_string()));
        let x = ended
            .iter()
            .find(|s| s.name == "step x" && s.parent_span_id == id(item));
        assert!(x.is_some(), "item {i}'s step under its run");
    }
}

#[test]
fn an_agents_tool_calls_are_spans_under_its_step() {
    let mut s = spans();
    let output = json!({"content": "42", "model": "gpt-x", "toolCalls": [
        {"name": "query", "arguments": {}, "ok": true, "summary": "3 results", "durationMs": 20},
        {"name": "ingest", "arguments": {}, "ok": false, "summary": "there is no tool \"ingest\"", "durationMs": 0}
    ]});
    let ended = feed(
        &mut s,
        vec![
            (0, started("ask")),
            (10, step("agent", "agent")),
            (100, completed("agent", output)),
            (101, finished(RunStatus::Completed)),
        ],
    );
    let step = named(&ended, "step agent");
    let query = named(&ended, "execute_tool query");
    let refused = named(&ended, "execute_tool ingest");
    assert_eq!(query.parent_span_id, id(step));
    assert_eq!((query.start_time, query.end_time), (at(10), at(30)));
    assert_eq!(attr(query, "gen_ai.tool.name").as_deref(), Some("query"));
    assert_eq!(
        attr(query, "gen_ai.operation.name").as_deref(),
        Some("execute_tool")
    );
    assert_eq!(query.status, Status::Ok);
    assert!(matches!(refused.status, Status::Error { .. }));
    assert_eq!(
        attr(step, "gen_ai.operation.name").as_deref(),
        Some("invoke_agent")
    );
}

#[test]
fn a_failed_run_ends_what_is_open_and_says_why() {
    let mut s = spans();
    let ended = feed(
        &mut s,
        vec![
            (0, started("w")),
            (1, step("slow", "http")),
            (2, step("bad", "http")),
            (
                3,
                RunEvent::StepFailed {
                    step_id: "bad".into(),
                    error: "HTTP 500".into(),
                    duration_ms: 1,
                    continued: false,
                    inputs: None,
                },
            ),
            (
                4,
                RunEvent::StepCancelled {
                    step_id: "slow".into(),
                },
            ),
            (
                5,
                RunEvent::Compensating {
                    step_id: "slow".into(),
                    tool: "undo".into(),
                },
            ),
            (
                6,
                RunEvent::Compensated {
                    step_id: "slow".into(),
                    ok: true,
                    error: None,
                },
            ),
            (
                7,
                RunEvent::RunFinished {
                    status: RunStatus::Failed,
                    duration_ms: 7,
                    error: Some("step bad: HTTP 500".into()),
                    usage: None,
                    output: None,
                },
            ),
        ],
    );
    let bad = named(&ended, "step bad");
    assert_eq!(bad.status, Status::error("HTTP 500"));
    assert_eq!(attr(bad, "vai.error").as_deref(), Some("HTTP 500"));
    assert_eq!(attr(bad, "vai.step.continued").as_deref(), Some("false"));
    let slow = named(&ended, "step slow");
    assert_eq!(attr(slow, "vai.step.status").as_deref(), Some("cancelled"));
    let undo = named(&ended, "compensate slow");
    let run = named(&ended, "run w");
    assert_eq!(undo.parent_span_id, id(run));
    assert_eq!(run.status, Status::error("step bad: HTTP 500"));
}

#[test]
fn a_run_that_waits_leaves_its_waiting_step_waiting_and_a_dropped_sink_ends_the_rest() {
    let mut s = spans();
    let ended = feed(
        &mut s,
        vec![
            (0, started("approve")),
            (1, step("ok", "yield")),
            (2, finished(RunStatus::Waiting)),
            (50, started("approve")),
            (51, step("next", "template")),
        ],
    );
    let ok = named(&ended, "step ok");
    assert_eq!(attr(ok, "vai.step.status").as_deref(), Some("waiting"));
    assert_eq!(
        attr(named(&ended, "run approve"), "vai.run.status").as_deref(),
        Some("waiting")
    );
    let rest = s.abandon(at(60));
    assert_eq!(names(&rest).len(), 2);
    assert!(rest.iter().all(
        |s| attr(s, "vai.step.status").as_deref() == Some("unfinished")
            || attr(s, "vai.run.status").as_deref() == Some("unfinished")
    ));
    assert!(s.open.is_empty());
}

fn item(step_id: &str, index: usize, duration_ms: u64, error: Option<&str>) -> RunEvent {
    RunEvent::ItemEnded {
        step_id: step_id.into(),
        index,
        duration_ms,
        error: error.map(str::to_string),
    }
}

#[test]
fn each_item_of_a_for_each_over_a_tool_is_a_span_under_its_step() {
    let mut s = spans();
    let ended = feed(
        &mut s,
        vec![
            (0, started("w")),
            (10, step("embed", "embed")),
            // Two at a time: item 1 ends before item 0.
            (50, item("embed", 1, 40, None)),
            (70, item("embed", 0, 60, None)),
            (95, item("embed", 2, 25, Some("HTTP 400: bad input"))),
            (96, completed("embed", json!({"results": [], "count": 3}))),
            (97, finished(RunStatus::Completed)),
        ],
    );
    assert_eq!(
        names(&ended),
        ["item 1", "item 0", "item 2", "step embed", "run w"]
    );
    let step = named(&ended, "step embed");
    for (span, index, start, end) in [
        (&ended[0], "1", 10, 50),
        (&ended[1], "0", 10, 70),
        (&ended[2], "2", 70, 95),
    ] {
        assert_eq!(span.parent_span_id, id(step));
        assert_eq!(span.span_context.trace_id(), step.span_context.trace_id());
        assert_eq!(attr(span, "vai.foreach.index").as_deref(), Some(index));
        assert_eq!((span.start_time, span.end_time), (at(start), at(end)));
    }
    assert_eq!(ended[0].status, Status::Ok);
    assert_eq!(ended[2].status, Status::error("HTTP 400: bad input"));
    assert_eq!(
        attr(&ended[2], "vai.step.status").as_deref(),
        Some("failed")
    );
}
