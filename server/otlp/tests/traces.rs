//! Real runs of the engine with fake tools, traced to an OTLP collector in the test: the span
//! tree it receives, and runs whose collector is closed, slow or swamped completing just as
//! they do untraced.

#[path = "traces/collector.rs"]
mod collector;
#[path = "traces/trip.rs"]
mod trip;

use collector::{attr, closed_port, collector, one, status};
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::status::StatusCode as SpanStatus;
use serde_json::json;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use trip::run_trip;
use vai_otlp::{Endpoint, Exporter, Settings};
use vai_workflow::RunStatus;

fn exporter(url: &str, settings: Settings) -> Exporter {
    let endpoint = Endpoint::resolve(Some(url), None).unwrap().unwrap();
    Exporter::start(endpoint, settings).unwrap()
}

fn quick() -> Settings {
    Settings {
        batch_delay: Duration::from_millis(20),
        timeout: Duration::from_millis(500),
        ..Settings::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_collector_receives_one_trace_with_the_run_its_steps_retries_and_child_runs() {
    let (url, received) = collector(Duration::ZERO).await;
    let exporter = exporter(&url, quick());
    let (result, events, _) = run_trip(|sink| exporter.sink(sink, "run-42")).await;
    assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
    assert_eq!(
        result.output,
        Some(json!({"seat": "Oslo-1A", "text": "a seat in Oslo"}))
    );
    let delivery = exporter.shutdown(Duration::from_secs(5)).await;
    assert_eq!(delivery.dropped, 0, "{delivery:?}");
    assert_eq!(delivery.warning(), None);

    let received = received.lock().unwrap().clone();
    assert!(
        received
            .iter()
            .all(|(service, _)| service.contains("\"vai\"")),
        "service.name is vai"
    );
    let spans: Vec<Span> = received.into_iter().map(|(_, s)| s).collect();
    assert_eq!(delivery.sent, spans.len() as u64);
    let traces: HashSet<&Vec<u8>> = spans.iter().map(|s| &s.trace_id).collect();
    assert_eq!(traces.len(), 1, "one trace per run");

    // The root: the run, with its id and workflow; nothing else without a parent.
    let roots: Vec<&Span> = spans
        .iter()
        .filter(|s| s.parent_span_id.is_empty())
        .collect();
    assert_eq!(roots.len(), 1);
    let root = roots[0];
    assert_eq!(root.name, "run trip");
    assert_eq!(attr(root, "vai.run.id").as_deref(), Some("run-42"));
    assert_eq!(attr(root, "vai.workflow.name").as_deref(), Some("trip"));
    assert_eq!(attr(root, "vai.run.status").as_deref(), Some("completed"));
    assert_eq!(attr(root, "vai.run.cost.usd").as_deref(), Some("0.0025"));

    // A span per top-level step, under the root, within its times.
    for (id, tool) in [
        ("fetch", "flaky"),
        ("book", "workflow"),
        ("answer", "generate"),
    ] {
        let step = one(&spans, &format!("step {id}"));
        assert_eq!(step.parent_span_id, root.span_id, "{id} under the run");
        assert_eq!(attr(step, "vai.step.id").as_deref(), Some(id));
        assert_eq!(attr(step, "vai.step.tool").as_deref(), Some(tool));
        assert_eq!(attr(step, "vai.step.status").as_deref(), Some("completed"));
        assert_eq!(status(step), SpanStatus::Ok);
        assert!(step.start_time_unix_nano >= root.start_time_unix_nano);
        assert!(step.end_time_unix_nano <= root.end_time_unix_nano);
        assert!(
            step.start_time_unix_nano < step.end_time_unix_nano,
            "{id} took time"
        );
    }
    let fetch = one(&spans, "step fetch");
    let book = one(&spans, "step book");
    assert!(
        book.start_time_unix_nano >= fetch.end_time_unix_nano,
        "book waits for fetch"
    );

    // The step that failed transiently once: two attempts under it, the first an error.
    let first = one(&spans, "attempt 1");
    let second = one(&spans, "attempt 2");
    assert_eq!(first.parent_span_id, fetch.span_id);
    assert_eq!(second.parent_span_id, fetch.span_id);
    assert_eq!(status(first), SpanStatus::Error);
    assert_eq!(
        attr(first, "vai.error").as_deref(),
        Some("HTTP 503 from the service")
    );
    assert_eq!(status(second), SpanStatus::Ok);
    assert!(
        second.start_time_unix_nano >= first.end_time_unix_nano + 20_000_000,
        "the retry's delay lies between"
    );

    // The sub-workflow runs under its workflow step, and its own sub-workflow under its step.
    let book_run = one(&spans, "run book");
    assert_eq!(book_run.parent_span_id, book.span_id);
    assert_eq!(attr(book_run, "vai.parent.step").as_deref(), Some("book"));
    let hold = one(&spans, "step hold");
    let pay = one(&spans, "step pay");
    assert_eq!(hold.parent_span_id, book_run.span_id);
    assert_eq!(pay.parent_span_id, book_run.span_id);
    let hold_run = one(&spans, "run hold");
    assert_eq!(hold_run.parent_span_id, hold.span_id);
    let seat = one(&spans, "step seat");
    assert_eq!(seat.parent_span_id, hold_run.span_id);
    assert!(seat.start_time_unix_nano >= hold.start_time_unix_nano);
    assert!(seat.end_time_unix_nano <= hold.end_time_unix_nano);

    // The model step in the GenAI conventions, with its cost.
    let answer = one(&spans, "step answer");
    assert_eq!(
        attr(answer, "gen_ai.operation.name").as_deref(),
        Some("chat")
    );
    assert_eq!(
        attr(answer, "gen_ai.provider.name").as_deref(),
        Some("openai")
    );
    assert_eq!(
        attr(answer, "gen_ai.request.model").as_deref(),
        Some("gpt-4o-mini")
    );
    assert_eq!(
        attr(answer, "gen_ai.usage.input_tokens").as_deref(),
        Some("120")
    );
    assert_eq!(
        attr(answer, "gen_ai.usage.output_tokens").as_deref(),
        Some("30")
    );
    assert_eq!(attr(answer, "vai.cost.usd").as_deref(), Some("0.0025"));
    assert_eq!(attr(answer, "vai.step.backend").as_deref(), Some("openai"));

    assert_eq!(
        spans.len(),
        11,
        "{:?}",
        spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );

    // The wrapped sink saw every event, as an untraced run's sink does.
    let (_, untraced, _) = run_trip(|sink| sink).await;
    assert_eq!(events.outline(), untraced.outline());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_collector_changes_nothing_in_the_run_and_is_reported_once() {
    let (plain, _, plain_took) = run_trip(|sink| sink).await;
    let url = closed_port();
    let exporter = exporter(&url, quick());
    let (traced, _, traced_took) = run_trip(|sink| exporter.sink(sink, "run-1")).await;
    assert_eq!(traced.status, plain.status);
    assert_eq!(traced.output, plain.output);
    assert!(
        traced_took < plain_took + Duration::from_millis(500),
        "the run did not wait for the collector: {traced_took:?} against {plain_took:?}"
    );

    let delivery = exporter.shutdown(Duration::from_secs(5)).await;
    assert_eq!(delivery.sent, 0);
    assert_eq!(delivery.dropped, 11, "{delivery:?}");
    let warning = delivery.warning().expect("the loss is reported");
    assert!(!warning.contains('\n'), "one line: {warning}");
    assert!(
        warning.starts_with("traces: 11 of 11 spans were not delivered to "),
        "{warning}"
    );
    assert!(warning.contains(&url), "{warning}");
    assert!(warning.to_lowercase().contains("refused"), "{warning}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collector_that_never_answers_is_given_up_on_within_the_timeouts() {
    let (url, received) = collector(Duration::from_secs(30)).await;
    let exporter = exporter(
        &url,
        Settings {
            timeout: Duration::from_millis(300),
            ..quick()
        },
    );
    let (result, _, _) = run_trip(|sink| exporter.sink(sink, "run-1")).await;
    assert_eq!(result.status, RunStatus::Completed);
    let started = Instant::now();
    let delivery = exporter.shutdown(Duration::from_secs(2)).await;
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "shutdown is bounded"
    );
    assert_eq!(delivery.sent, 0);
    assert_eq!(delivery.dropped, 11, "{delivery:?}");
    assert!(received.lock().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_beyond_the_queue_are_dropped_and_counted() {
    // The first span's export hangs; three more wait; the rest find the queue full.
    let (url, _) = collector(Duration::from_secs(30)).await;
    let exporter = exporter(
        &url,
        Settings {
            queue: 3,
            batch: 1,
            batch_delay: Duration::ZERO,
            timeout: Duration::from_secs(10),
        },
    );
    let (result, _, _) = run_trip(|sink| exporter.sink(sink, "run-1")).await;
    assert_eq!(result.status, RunStatus::Completed);
    let delivery = exporter.shutdown(Duration::from_millis(300)).await;
    assert_eq!(delivery.sent, 0);
    assert_eq!(delivery.dropped, 11, "{delivery:?}");
    let reason = delivery.reason.unwrap();
    assert!(
        reason.contains("7 dropped because 3 spans were already waiting to be sent"),
        "{reason}"
    );
    assert!(
        reason.contains("4 still waiting when vai stopped"),
        "{reason}"
    );
}
