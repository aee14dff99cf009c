//! Runs kept in MongoDB (`.vai.json` `"runs": {"store": "mongodb"}`), against the wire fake
//! with its small database: a run that waits on one machine is listed, answered and finished
//! from another; a run another process holds is refused, naming the holder; a run started in
//! one machine's playground is listed and answered from another once the playground stops; a
//! bad `runs` setting stops vai (the playground and `vai mcp` too) with exit code 2, naming
//! the file and the field.

use super::runs::{APPROVE, json_of};
use super::{scratch, text, vai_command};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use vai_mongo_runs::MongoRuns;
use vai_mongo_runs::fake_db::FakeDb;
use vai_providers::mongo::MongoStore;

/// A machine of the team: its own data directory and user config, the shared server.
fn machine(dir: &Path, name: &str, uri: &str) -> Command {
    let mut c = vai_command(dir);
    c.env("VAI_DATA_DIR", dir.join(name))
        .env("VAI_CONFIG_PATH", dir.join(name).join("config.json"))
        .env("MONGODB_URI", uri)
        .stdin(Stdio::null());
    c
}

fn on(dir: &Path, name: &str, uri: &str, args: &[&str]) -> Output {
    machine(dir, name, uri)
        .args(args)
        .output()
        .expect("run vai")
}

/// The fake server lives on a runtime of the test's own while the binary talks to it.
fn fake() -> (tokio::runtime::Runtime, FakeDb) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = runtime.block_on(FakeDb::start());
    (runtime, db)
}

#[test]
fn a_run_that_waits_on_one_machine_is_answered_from_another() {
    let (runtime, db) = fake();
    let uri = db.server.uri.clone();
    let dir = scratch("shared-runs");
    std::fs::write(dir.join("approve.vai-workflow.json"), APPROVE).unwrap();
    std::fs::write(
        dir.join(".vai.json"),
        r#"{"runs": {"store": "mongodb", "database": "team"}}"#,
    )
    .unwrap();

    let out = on(
        &dir,
        "a",
        &uri,
        &["workflow", "run", "approve.vai-workflow.json", "--json"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let id = json_of(&out)["runId"].as_str().unwrap().to_string();
    // Nothing in machine a's data directory: the journal is in MongoDB.
    assert!(
        !dir.join("a")
            .join("runs")
            .join(format!("{id}.jsonl"))
            .exists()
    );

    let listed = json_of(&on(&dir, "b", &uri, &["runs", "list", "--json"]));
    assert_eq!(listed["runs"][0]["runId"], id.as_str(), "{listed}");
    assert_eq!(listed["runs"][0]["status"], "waiting");

    // Machine b answers; machine a's lease was let go when it stopped to wait.
    let out = on(
        &dir,
        "b",
        &uri,
        &["runs", "resume", &id, "--input", "approved=true", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(json_of(&out)["output"], "approved=true seats=");

    let shown = json_of(&on(&dir, "a", &uri, &["runs", "show", &id, "--json"]));
    assert_eq!(shown["status"], "completed", "{shown}");
    let runs = db.documents("runs");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].get_str("_id"), Ok(id.as_str()));
    assert!(runs[0].get("lease").is_some_and(|l| l.as_null().is_some()));
    let kinds: Vec<String> = db
        .documents("run_lines")
        .iter()
        .map(|d| d.get_str("t").unwrap().to_string())
        .collect();
    // Both machines' lines in one journal: the wait, the answer, the other's resumption.
    let at = |t: &str| kinds.iter().position(|k| k == t).unwrap_or(usize::MAX);
    assert_eq!(
        (at("run"), kinds.last().map(String::as_str)),
        (0, Some("end"))
    );
    assert!(
        at("waiting") < at("answer") && at("answer") < at("resumed"),
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| *k == "step").count(),
        3,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| *k == "trace").count(),
        3,
        "{kinds:?}"
    );

    // A run another machine holds is refused, and says who holds it.
    let out = on(
        &dir,
        "a",
        &uri,
        &["workflow", "run", "approve.vai-workflow.json", "--json"],
    );
    let second = json_of(&out)["runId"].as_str().unwrap().to_string();
    let held = runtime.block_on(async {
        let other = MongoRuns::new(MongoStore::connect(&uri).unwrap(), "team")
            .with_owner("build-7:42:cafe0001");
        other.take(&second, 1 << 20).await.unwrap()
    });
    let out = on(
        &dir,
        "b",
        &uri,
        &["runs", "resume", &second, "--input", "approved=false"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!(
            "error: run \"{second}\" is being run by another process (held by build-7:42:cafe0001 until "
        )),
        "{}",
        text(&out.stderr)
    );
    runtime.block_on(held.1.close()).unwrap();
    drop(runtime);
}

#[test]
fn a_bad_runs_setting_names_the_file_and_the_field() {
    let dir = scratch("shared-runs-bad");
    std::fs::write(dir.join("approve.vai-workflow.json"), APPROVE).unwrap();
    let cases = [
        (
            r#"{"runs": {"store": "postgres"}}"#,
            r#"runs.store is "postgres": use "file""#,
        ),
        (
            r#"{"runs": {"store": "mongodb", "uri": "mongodb://ann:hunter22@db.example.com"}}"#,
            "runs.uri holds a password",
        ),
        (
            r#"{"runs": {"store": "mongodb"}}"#,
            r#"runs.store is "mongodb" but no MongoDB connection string is configured"#,
        ),
    ];
    for (config, says) in cases {
        std::fs::write(dir.join(".vai.json"), config).unwrap();
        for args in [
            &["runs", "list"][..],
            &["workflow", "run", "approve.vai-workflow.json"][..],
            &["playground", "--port", "0", "--no-open"][..],
            &["mcp"][..],
        ] {
            let mut command = machine(&dir, "a", "");
            command.env_remove("MONGODB_URI").args(args);
            let out = stopped_within(command, Duration::from_secs(60));
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{config} {args:?}: {err}");
            assert!(err.contains(".vai.json"), "{err}");
            assert!(err.contains(says), "{config}: {err}");
            assert!(!err.contains("hunter22"), "{err}");
        }
    }
}

/// `command`'s output once it has stopped on its own; killed (and the test failed) when it
/// still runs after `limit` — a server that should have refused to start.
fn stopped_within(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run vai");
    let started = Instant::now();
    while child.try_wait().expect("wait for vai").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("wait for vai");
            panic!("vai still ran after {limit:?}: {}", text(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("wait for vai")
}

#[test]
fn a_run_started_in_one_machines_playground_is_answered_from_another() {
    let (runtime, db) = fake();
    let uri = db.server.uri.clone();
    let dir = scratch("shared-runs-playground");
    std::fs::write(
        dir.join(".vai.json"),
        r#"{"runs": {"store": "mongodb", "database": "team"}}"#,
    )
    .unwrap();
    let mut command = machine(&dir, "a", &uri);
    command
        .args(["playground", "--port", "0", "--no-open"])
        .env_remove("VAI_PLAYGROUND_TOKEN");
    let mut playground = super::Playground::spawn(command, &dir, &[]);
    let id = playground.start_run(serde_json::from_str(APPROVE).unwrap());

    // Machine b sees the playground's run waiting, in the shared store.
    let mut listed = serde_json::Value::Null;
    for _ in 0..200 {
        listed = json_of(&on(&dir, "b", &uri, &["runs", "list", "--json"]));
        if listed["runs"][0]["status"] == "waiting" {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(listed["runs"][0]["runId"], id.as_str(), "{listed}");
    assert_eq!(listed["runs"][0]["status"], "waiting", "{listed}");

    // The playground stops as Ctrl-C stops it, letting the run go; machine b answers it.
    playground.stop();
    let out = on(
        &dir,
        "b",
        &uri,
        &["runs", "resume", &id, "--input", "approved=true", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(json_of(&out)["output"], "approved=true seats=");
    let runs = db.documents("runs");
    assert_eq!(runs.len(), 1);
    assert!(runs[0].get("lease").is_some_and(|l| l.as_null().is_some()));
    drop(runtime);
}
