//! `--otlp-endpoint` and `OTEL_EXPORTER_OTLP_ENDPOINT` on `vai workflow run` (and a rerun, and
//! the playground): spans reach a collector on loopback, a bad URL is refused before anything
//! runs, and a closed collector changes nothing but one warning line.

use super::support::collector::{collector, contains, sent};
use super::{scratch, text, vai_command};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

/// `trip`, whose `book` step runs the workflow `book` beside it.
fn workflows(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::write(
        dir.join("trip.vai-workflow.json"),
        r#"{"name": "trip", "steps": [
            {"id": "greet", "tool": "template", "inputs": {"text": "to Oslo"}},
            {"id": "book", "tool": "workflow", "inputs": {"workflow": "book", "inputs": {"city": "{{ greet.output.text }}"}}}
        ], "output": "{{ book.output.seat }}"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("book.vai-workflow.json"),
        r#"{"name": "book", "inputs": {"city": {"type": "string", "required": true}}, "steps": [
            {"id": "seat", "tool": "template", "inputs": {"text": "1A {{ inputs.city }}"}}
        ], "output": {"seat": "{{ seat.output.text }}"}}"#,
    )
    .unwrap();
    dir
}

fn run_trip(dir: &Path, flag: Option<&str>, env: Option<&str>) -> std::process::Output {
    let mut command = vai_command(dir);
    command
        .env("VAI_DATA_DIR", dir.join("data"))
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .args(["workflow", "run", "trip.vai-workflow.json"]);
    if let Some(url) = flag {
        command.args(["--otlp-endpoint", url]);
    }
    if let Some(url) = env {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", url);
    }
    command.output().expect("run vai")
}

#[test]
fn a_run_sends_its_spans_to_the_collector_the_flag_names() {
    let dir = workflows("traces-flag");
    let (port, requests) = collector();
    let url = format!("http://127.0.0.1:{port}/v1/traces");
    let out = run_trip(&dir, Some(&url), None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "1A to Oslo");
    assert!(
        !text(&out.stderr).contains("traces:"),
        "{}",
        text(&out.stderr)
    );

    let requests = requests.lock().unwrap();
    assert!(!requests.is_empty(), "the collector was sent the spans");
    let body: Vec<u8> = requests.iter().flat_map(|(_, _, b)| b.clone()).collect();
    for (line, kind, _) in requests.iter() {
        assert_eq!(line, "POST /v1/traces HTTP/1.1");
        assert_eq!(kind, "application/x-protobuf");
    }
    // Protobuf keeps strings as they are: the span names and attributes can be read off.
    let names = [
        "run trip",
        "step greet",
        "step book",
        "run book",
        "step seat",
        "vai.run.id",
    ];
    assert_sent(&body, &names);
}

#[test]
fn the_environment_variable_is_a_base_url_and_the_flag_wins_over_it() {
    let dir = workflows("traces-env");
    let (port, requests) = collector();
    let out = run_trip(&dir, None, Some(&format!("http://127.0.0.1:{port}")));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        requests
            .lock()
            .unwrap()
            .iter()
            .any(|(line, _, _)| line == "POST /v1/traces HTTP/1.1")
    );

    let (other, elsewhere) = collector();
    let out = run_trip(
        &dir,
        Some(&format!("http://127.0.0.1:{other}")),
        Some(&format!("http://127.0.0.1:{port}")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !elsewhere.lock().unwrap().is_empty(),
        "the flag's collector"
    );
}

#[test]
fn a_url_that_is_not_http_is_refused_before_the_run_naming_where_it_came_from() {
    let dir = workflows("traces-bad");
    let out = run_trip(&dir, Some("grpc://localhost:4317"), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: --otlp-endpoint \"grpc://localhost:4317\": the scheme must be http or https (OTLP over HTTP), not grpc"
    );
    assert!(out.stdout.is_empty(), "nothing ran");

    let out = run_trip(&dir, None, Some("localhost:4318"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: OTEL_EXPORTER_OTLP_ENDPOINT \"localhost:4318\": "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_closed_collector_leaves_the_run_as_it_was_and_one_warning() {
    let dir = workflows("traces-closed");
    let plain = run_trip(&dir, None, None);
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/v1/traces");
    let out = run_trip(&dir, Some(&url), None);
    assert_eq!(out.status.code(), plain.status.code());
    assert_eq!(out.stdout, plain.stdout);
    let stderr = text(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: traces:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains(&format!("spans were not delivered to {url}")),
        "{stderr}"
    );
}

#[test]
fn a_rerun_sends_the_new_runs_spans_too() {
    let dir = workflows("traces-rerun");
    let first = {
        let mut command = vai_command(&dir);
        command
            .env("VAI_DATA_DIR", dir.join("data"))
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .args(["workflow", "run", "trip.vai-workflow.json", "--json"]);
        command.output().expect("run vai")
    };
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let run: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let id = run["runId"].as_str().unwrap();

    let (port, requests) = collector();
    let mut command = vai_command(&dir);
    command
        .env("VAI_DATA_DIR", dir.join("data"))
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .args(["runs", "rerun", id, "--from", "book", "--json"])
        .args(["--otlp-endpoint", &format!("http://127.0.0.1:{port}")]);
    let out = command.output().expect("run vai");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rerun: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let new_id = rerun["runId"].as_str().unwrap();
    assert_ne!(new_id, id);

    assert_sent(
        &sent(&requests),
        &["run trip", "step greet", "step book", "run book", new_id],
    );
}

#[test]
fn a_playground_run_sends_its_spans_by_the_time_the_playground_stops() {
    let dir = workflows("traces-playground");
    let (port, requests) = collector();
    let url = format!("http://127.0.0.1:{port}");
    let mut playground = super::Playground::start_with(&dir, &["--otlp-endpoint", &url], &[]);
    let trip = std::fs::read(dir.join("trip.vai-workflow.json")).unwrap();
    let id = playground.start_run(serde_json::from_slice(&trip).unwrap());
    let mut snapshot = serde_json::Value::Null;
    for _ in 0..200 {
        snapshot = serde_json::from_str(&playground.get(&format!("/api/runs/{id}")).1).unwrap();
        if snapshot["status"] == "completed" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(snapshot["status"], "completed", "{snapshot}");
    playground.stop();

    assert_sent(
        &sent(&requests),
        &[
            "run trip",
            "step greet",
            "step book",
            "run book",
            "step seat",
            &id,
        ],
    );
}

/// Each of `names` is in the spans the collector was sent.
fn assert_sent(body: &[u8], names: &[&str]) {
    for name in names {
        assert!(contains(body, name), "{name} was sent");
    }
}
