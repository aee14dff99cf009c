//! Durable runs from the command line: a run that waits exits 3 and goes on with `vai runs
//! resume`; a run whose process was killed resumes without running again what completed;
//! cancelling a saved run runs its compensations; a changed file is not resumed unless forced.

use super::{scratch, text, vai_command};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `vai` in `dir` with its own data directory.
pub(super) fn vai_in(dir: &Path) -> Command {
    let mut c = vai_command(dir);
    c.env("VAI_DATA_DIR", dir.join("data")).stdin(Stdio::null());
    c
}

pub(super) fn run(dir: &Path, args: &[&str]) -> Output {
    vai_in(dir).args(args).output().expect("run vai")
}

pub(super) fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)))
}

pub(super) const APPROVE: &str = r#"{"name": "approve", "steps": [
  {"id": "find", "tool": "template", "inputs": {"text": "flight to Oslo"}},
  {"id": "ok", "tool": "yield", "inputs": {"message": "Book the {{ find.output.text }}?",
    "expects": {"type": "object", "properties": {"approved": {"type": "boolean"},
      "seats": {"type": "integer", "minimum": 1, "maximum": 4}}, "required": ["approved"]}}},
  {"id": "done", "tool": "template", "inputs": {"text": "approved={{ ok.output.approved }} seats={{ ok.output.seats }}"}}
 ], "output": "{{ done.output.text }}"}"#;

#[test]
fn a_run_that_waits_exits_3_and_an_answer_resumes_it() {
    let dir = scratch("runs-wait");
    std::fs::write(dir.join("approve.vai-workflow.json"), APPROVE).unwrap();
    let out = run(
        &dir,
        &["workflow", "run", "approve.vai-workflow.json", "--json"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let waiting = json_of(&out);
    assert_eq!(waiting["status"], "waiting");
    assert_eq!(waiting["stepId"], "ok");
    assert_eq!(waiting["message"], "Book the flight to Oslo?");
    assert_eq!(waiting["expects"]["required"][0], "approved");
    let id = waiting["runId"].as_str().unwrap().to_string();

    let listed = json_of(&run(
        &dir,
        &["runs", "list", "--json", "--status", "waiting"],
    ));
    assert_eq!(listed["runs"][0]["runId"], id.as_str());
    let shown = run(&dir, &["runs", "show", &id]);
    assert!(
        text(&shown.stdout).contains("--input approved=true"),
        "{}",
        text(&shown.stdout)
    );

    // A bad answer names each field; nothing changes.
    let bad = run(
        &dir,
        &[
            "runs",
            "resume",
            &id,
            "--input",
            "approved=maybe",
            "--input",
            "seats=9",
        ],
    );
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(
        err.contains("answer field \"approved\" must be a boolean"),
        "{err}"
    );
    assert!(
        err.contains("answer field \"seats\" must be at most 4"),
        "{err}"
    );
    let still = json_of(&run(&dir, &["runs", "show", &id, "--json"]));
    assert_eq!(still["status"], "waiting");

    let good = run(
        &dir,
        &[
            "runs",
            "resume",
            &id,
            "--input",
            "approved=yes",
            "--input",
            "seats=2",
        ],
    );
    assert_eq!(good.status.code(), Some(0), "{}", text(&good.stderr));
    assert_eq!(text(&good.stdout).trim(), "approved=true seats=2");
    let again = run(&dir, &["runs", "resume", &id]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("already ended (completed)"));
}

#[test]
fn a_changed_workflow_is_not_resumed_unless_forced() {
    let dir = scratch("runs-changed");
    let file = dir.join("approve.vai-workflow.json");
    std::fs::write(&file, APPROVE).unwrap();
    let out = run(
        &dir,
        &["workflow", "run", "approve.vai-workflow.json", "--json"],
    );
    let id = json_of(&out)["runId"].as_str().unwrap().to_string();
    std::fs::write(&file, APPROVE.replace("seats={{", "seats: {{")).unwrap();
    let refused = run(&dir, &["runs", "resume", &id, "--input", "approved=true"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(err.contains("step \"done\" changed"), "{err}");
    let forced = run(
        &dir,
        &["runs", "resume", &id, "--input", "approved=true", "--force"],
    );
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    assert_eq!(text(&forced.stdout).trim(), "approved=true seats:");
}

/// A loopback HTTP server counting requests by path; `/slow` answers only once `release` is
/// set.
pub(super) struct Fake {
    pub(super) port: u16,
    counts: Arc<Mutex<Vec<String>>>,
    release: Arc<AtomicBool>,
}

impl Fake {
    pub(super) fn start() -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let counts = Arc::new(Mutex::new(Vec::new()));
        let release = Arc::new(AtomicBool::new(false));
        let (c, r) = (counts.clone(), release.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (c, r) = (c.clone(), r.clone());
                std::thread::spawn(move || {
                    let mut stream = stream;
                    let mut buf = [0u8; 4096];
                    let n = stream.read(&mut buf).unwrap_or(0);
                    let head = String::from_utf8_lossy(&buf[..n]).to_string();
                    let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
                    c.lock().unwrap().push(path.clone());
                    if path == "/slow" {
                        while !r.load(Ordering::SeqCst) {
                            std::thread::sleep(Duration::from_millis(20));
                        }
                    }
                    let body = r#"{"ok": true, "id": "x1"}"#;
                    let _ = write!(
                        stream,
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                });
            }
        });
        Fake {
            port,
            counts,
            release,
        }
    }

    pub(super) fn count(&self, path: &str) -> usize {
        self.counts
            .lock()
            .unwrap()
            .iter()
            .filter(|p| *p == path)
            .count()
    }
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_run_resumes_and_what_completed_is_not_called_again() {
    let dir = scratch("runs-kill");
    let fake = Fake::start();
    let api = format!("http://127.0.0.1:{}", fake.port);
    let wf = serde_json::json!({"name": "twice", "steps": [
        {"id": "first", "tool": "http", "inputs": {"url": format!("{api}/first"), "method": "POST", "body": {"n": 1}}},
        {"id": "second", "tool": "http", "inputs": {"url": format!("{api}/slow"), "method": "POST", "body": {"after": "{{ first.output.body.id }}"}}}
    ], "output": {"first": "{{ first.output.status }}", "second": "{{ second.output.status }}"}});
    std::fs::write(dir.join("twice.vai-workflow.json"), wf.to_string()).unwrap();
    let mut child = vai_in(&dir)
        .args([
            "workflow",
            "run",
            "twice.vai-workflow.json",
            "--allow-host",
            "127.0.0.1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first call completed and the second is in flight: the process dies (SIGKILL).
    wait_until("the second call", || fake.count("/slow") == 1);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(fake.count("/first"), 1);

    let listed = json_of(&run(
        &dir,
        &["runs", "list", "--json", "--status", "interrupted"],
    ));
    let id = listed["runs"][0]["runId"]
        .as_str()
        .expect("an interrupted run")
        .to_string();
    assert_eq!(listed["runs"][0]["completedSteps"], 1);

    fake.release.store(true, Ordering::SeqCst);
    let resumed = run(
        &dir,
        &["runs", "resume", &id, "--allow-host", "127.0.0.1", "--json"],
    );
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed.stderr));
    let result = json_of(&resumed);
    assert_eq!(result["status"], "completed");
    assert_eq!(result["output"]["second"], 200);
    // The completed step ran once in all; the one in flight ran again (at least once).
    assert_eq!(fake.count("/first"), 1);
    assert_eq!(fake.count("/slow"), 2);
}

#[test]
fn cancelling_a_saved_run_runs_its_compensations_once() {
    let dir = scratch("runs-cancel");
    let fake = Fake::start();
    let api = format!("http://127.0.0.1:{}", fake.port);
    let wf = serde_json::json!({"name": "undoable", "steps": [
        {"id": "hold", "tool": "http", "inputs": {"url": format!("{api}/hold"), "method": "POST", "body": {}},
         "compensate": {"tool": "http", "inputs": {"url": format!("{api}/release/{{{{ hold.output.body.id }}}}"), "method": "POST", "body": {}}}},
        {"id": "ok", "tool": "yield", "dependsOn": ["hold"], "inputs": {"message": "Keep the hold?"}}
    ]});
    std::fs::write(dir.join("undoable.vai-workflow.json"), wf.to_string()).unwrap();
    let out = run(
        &dir,
        &[
            "workflow",
            "run",
            "undoable.vai-workflow.json",
            "--allow-host",
            "127.0.0.1",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let id = json_of(&out)["runId"].as_str().unwrap().to_string();
    let cancelled = run(&dir, &["runs", "cancel", &id, "--allow-host", "127.0.0.1"]);
    assert_eq!(
        cancelled.status.code(),
        Some(0),
        "{}",
        text(&cancelled.stderr)
    );
    assert!(text(&cancelled.stderr).contains("compensated: hold"));
    assert_eq!(fake.count("/release/x1"), 1);
    let shown = json_of(&run(&dir, &["runs", "show", &id, "--json"]));
    assert_eq!(shown["status"], "cancelled");
    let again = run(&dir, &["runs", "cancel", &id, "--allow-host", "127.0.0.1"]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(fake.count("/release/x1"), 1);
}

#[test]
fn a_run_held_by_another_process_is_not_resumed_twice() {
    let dir = scratch("runs-busy");
    let fake = Fake::start();
    let api = format!("http://127.0.0.1:{}", fake.port);
    let wf = serde_json::json!({"name": "slow", "steps": [
        {"id": "wait", "tool": "http", "inputs": {"url": format!("{api}/slow"), "method": "POST", "body": {}}}
    ]});
    std::fs::write(dir.join("slow.vai-workflow.json"), wf.to_string()).unwrap();
    let mut child = vai_in(&dir)
        .args([
            "workflow",
            "run",
            "slow.vai-workflow.json",
            "--allow-host",
            "127.0.0.1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_until("the call", || fake.count("/slow") == 1);
    let listed = json_of(&run(
        &dir,
        &["runs", "list", "--json", "--status", "running"],
    ));
    let id = listed["runs"][0]["runId"]
        .as_str()
        .expect("a running run")
        .to_string();
    let refused = run(&dir, &["runs", "resume", &id]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("is being run by another process"));
    fake.release.store(true, Ordering::SeqCst);
    assert!(child.wait().unwrap().success());
    assert_eq!(fake.count("/slow"), 1);
}

#[test]
fn in_a_terminal_a_yield_asks_each_field_and_the_run_goes_on() {
    let dir = scratch("runs-terminal");
    std::fs::write(dir.join("approve.vai-workflow.json"), APPROVE).unwrap();
    let mut command = vai_command(&dir);
    command.env("VAI_DATA_DIR", dir.join("data"));
    let Some(mut term) =
        crate::terminal::Terminal::start(&command, "workflow run approve.vai-workflow.json")
    else {
        return;
    };
    let asked = term.wait_for("approved (y/n): ");
    assert!(asked.contains("Book the flight to Oslo?"), "{asked}");
    term.type_keys(b"maybe\n");
    term.wait_for("approved must be a boolean");
    term.wait_for("approved (y/n): ");
    term.type_keys(b"y\n");
    term.wait_for("seats (integer, optional): ");
    term.type_keys(b"9\n");
    term.wait_for("seats must be at most 4");
    term.type_keys(b"2\n");
    let (code, seen) = term.finish();
    assert_eq!(code, Some(0), "{seen}");
    assert!(seen.contains("approved=true seats=2"), "{seen}");
}
