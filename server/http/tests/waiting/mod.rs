//! Runs that wait for a person: `POST /api/runs/{id}/input` answers (400 naming each bad field,
//! 409 when the run does not wait), the run goes on in the same log; a run saved as waiting by
//! an earlier server is listed after a restart and an answer takes it up under the same id.

use crate::support::{TestApp, registry};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use vai_http::AppState;
use vai_workflow::fsutil::FileError;
use vai_workflow::journal::{
    JournalError, JournalState, Pruned, Retention, RunBackend, RunInfo, RunJournal, RunStart,
    RunStore,
};

fn asks() -> Value {
    json!({"name": "Asks", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "flight"}},
        {"id": "ok", "tool": "yield", "inputs": {"message": "Book the {{ a.output.text }}?",
            "expects": {"type": "object", "properties": {
                "approved": {"type": "boolean"},
                "seats": {"type": "integer", "minimum": 1, "maximum": 4}},
              "required": ["approved"]}}},
        {"id": "b", "tool": "echo", "inputs": {"text": "{{ ok.output.approved }}"}}
    ], "output": {"approved": "{{ b.output.text }}"}})
}

#[tokio::test]
async fn a_waiting_run_takes_a_checked_answer_and_goes_on() {
    let app = TestApp::new();
    let id = app.start(asks(), json!({})).await;
    let snapshot = app.wait_for(&id, "waiting").await;
    assert_eq!(snapshot["waiting"]["stepId"], "ok");
    assert_eq!(snapshot["waiting"]["message"], "Book the flight?");
    assert_eq!(snapshot["steps"]["ok"]["status"], "waiting");

    let uri = format!("/api/runs/{id}/input");
    let (code, body) = app
        .post(&uri, json!({"input": {"approved": "yes", "seats": 7}}))
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["code"], "INVALID_ANSWER");
    let fields: Vec<&str> = body["error"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["approved", "seats"]);
    let (code, body) = app
        .post(
            &uri,
            json!({"stepId": "other", "input": {"approved": true}}),
        )
        .await;
    assert_eq!(code, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "NOT_WAITING");

    let (code, body) = app.post(&uri, json!({"input": {"approved": true}})).await;
    assert_eq!(code, StatusCode::ACCEPTED, "{body}");
    let done = app.wait_for(&id, "completed").await;
    assert_eq!(done["output"]["approved"], true);
    assert_eq!(done["steps"]["b"]["status"], "completed");
    let (code, body) = app.post(&uri, json!({"input": {"approved": true}})).await;
    assert_eq!(code, StatusCode::CONFLICT, "{body}");
}

#[tokio::test]
async fn a_run_waiting_when_the_server_stopped_is_listed_and_resumed_after_a_restart() {
    let app = TestApp::new();
    let id = app.start(asks(), json!({})).await;
    app.wait_for(&id, "waiting").await;
    // The server stops: its runs go with it; the journal stays.
    app.state.runs().shutdown().await;
    let journals = RunStore::open(&std::path::PathBuf::from(format!(
        "{}-data",
        app.dir.display()
    )))
    .unwrap();
    let settings_dir = app.dir.clone();
    let restarted = TestApp::reopen(settings_dir, registry(), journals);

    let (code, list) = restarted.get("/api/runs").await;
    assert_eq!(code, StatusCode::OK);
    let listed = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["runId"] == id.as_str())
        .expect("the waiting run is listed");
    assert_eq!(listed["status"], "waiting");
    let (code, snapshot) = restarted.get(&format!("/api/runs/{id}")).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(snapshot["waiting"]["stepId"], "ok");
    assert_eq!(snapshot["steps"]["a"]["status"], "completed");

    let uri = format!("/api/runs/{id}/input");
    let (code, body) = restarted
        .post(&uri, json!({"input": {"approved": 3}}))
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");
    let (code, body) = restarted
        .post(&uri, json!({"input": {"approved": false}}))
        .await;
    assert_eq!(code, StatusCode::ACCEPTED, "{body}");
    let done = restarted.wait_for(&id, "completed").await;
    assert_eq!(done["output"]["approved"], false);
    // `a` was replayed from the journal, not run again.
    assert_eq!(done["steps"]["a"]["backend"], "journal");
    let _: &AppState = &restarted.state;
}

#[tokio::test]
async fn an_interrupted_run_is_listed_and_continued_without_rerunning_what_completed() {
    let app = TestApp::new();
    let journals = || {
        RunStore::open(&std::path::PathBuf::from(format!(
            "{}-data",
            app.dir.display()
        )))
        .unwrap()
    };
    // What a process killed after `a` completed leaves behind.
    let definition = crate::support::chain();
    let start = RunStart {
        run_id: "run-killed-1".into(),
        workflow: "Chain".into(),
        definition: definition.clone(),
        source: json!({}),
        inputs: json!({"q": "hi"}).as_object().cloned().unwrap(),
        defaults_override: Default::default(),
        started_at: 1,
        ..Default::default()
    };
    let journal = journals().create(&start, 1 << 20).unwrap();
    use vai_workflow::exec::durable::{Entry, Journal};
    journal.record(
        &[],
        Entry::Step {
            id: "a",
            entry: &Arc::new(json!({"output": {"text": "from the journal"}})),
            undo: None,
        },
    );
    drop(journal);
    let restarted = TestApp::reopen(app.dir.clone(), registry(), journals());
    let (_, list) = restarted.get("/api/runs").await;
    let listed = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["runId"] == "run-killed-1")
        .expect("listed")
        .clone();
    assert_eq!(listed["status"], "interrupted");
    let (code, body) = restarted
        .post("/api/runs/run-killed-1/input", json!({"input": {}}))
        .await;
    assert_eq!(code, StatusCode::CONFLICT, "{body}");
    let (code, body) = restarted
        .post("/api/runs/run-killed-1/continue", json!({}))
        .await;
    assert_eq!(code, StatusCode::ACCEPTED, "{body}");
    let done = restarted.wait_for("run-killed-1", "completed").await;
    assert_eq!(done["output"]["answer"], "from the journal!");
    let (code, _) = restarted
        .post("/api/runs/run-killed-1/continue", json!({}))
        .await;
    assert_eq!(code, StatusCode::CONFLICT);
}

/// The data directory's store, whose reads and takes fail once `broken` is set (a shared store
/// that stopped answering, a journal file that cannot be read), in words a client must not see.
struct Unreadable {
    inner: RunStore,
    broken: Arc<AtomicBool>,
}

#[async_trait::async_trait]
impl RunBackend for Unreadable {
    fn kind(&self) -> &'static str {
        "file"
    }
    fn location(&self) -> String {
        self.inner.location()
    }
    fn retention(&self) -> Retention {
        RunBackend::retention(&self.inner)
    }
    async fn create(
        &self,
        start: &RunStart,
        limit: u64,
    ) -> Result<Arc<dyn RunJournal>, JournalError> {
        RunBackend::create(&self.inner, start, limit).await
    }
    async fn take(
        &self,
        id: &str,
        limit: u64,
    ) -> Result<(JournalState, Arc<dyn RunJournal>), JournalError> {
        if self.broken.load(Ordering::SeqCst) {
            return Err(JournalError::Store(
                "mongodb://db.internal: the store is down".into(),
            ));
        }
        RunBackend::take(&self.inner, id, limit).await
    }
    async fn read(&self, id: &str) -> Result<JournalState, JournalError> {
        if self.broken.load(Ordering::SeqCst) {
            // As the runs directory answers a journal file it cannot read.
            return Err(JournalError::File(FileError::Io {
                action: "read",
                name: format!("/srv/private/{id}.jsonl"),
                source: std::io::Error::other("the store is down"),
            }));
        }
        RunBackend::read(&self.inner, id).await
    }
    async fn list(&self) -> Result<Vec<RunInfo>, JournalError> {
        if self.broken.load(Ordering::SeqCst) {
            return Err(JournalError::Io(std::io::Error::other("the store is down")));
        }
        RunBackend::list(&self.inner).await
    }
    async fn info(&self, id: &str) -> RunInfo {
        RunBackend::info(&self.inner, id).await
    }
    async fn prune(&self, retention: &Retention) -> Result<Pruned, JournalError> {
        RunBackend::prune(&self.inner, retention).await
    }
}

/// A playground over an [`Unreadable`] store in a fresh data directory: the app, the switch that
/// breaks the store, and the directory (removed by the caller).
fn over_unreadable_store(broken: bool) -> (TestApp, Arc<AtomicBool>, std::path::PathBuf) {
    let first = TestApp::new();
    let data = std::env::temp_dir().join(format!(
        "vai-http-unreadable-{}-{}",
        std::process::id(),
        first.dir.file_name().unwrap().to_string_lossy()
    ));
    let broken = Arc::new(AtomicBool::new(broken));
    let store = Unreadable {
        inner: RunStore::open(&data).unwrap(),
        broken: broken.clone(),
    };
    let app = TestApp::reopen(first.dir.clone(), registry(), store);
    (app, broken, data)
}

#[tokio::test]
async fn an_answer_whose_journal_cannot_be_read_back_runs_nothing_again() {
    let (app, broken, data) = over_unreadable_store(false);
    let id = app.start(asks(), json!({})).await;
    app.wait_for(&id, "waiting").await;
    broken.store(true, Ordering::SeqCst);
    let uri = format!("/api/runs/{id}/input");
    let (code, body) = app.post(&uri, json!({"input": {"approved": true}})).await;
    assert_eq!(code, StatusCode::ACCEPTED, "{body}");
    let failed = app.wait_for(&id, "failed").await;
    let error = failed["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("could not be read back") && error.contains("vai runs resume"),
        "{failed}"
    );
    assert!(!error.contains("store is down"), "{failed}");
    // Step `a` completed before the wait and was not run again; nothing after the wait ran.
    assert_ne!(failed["steps"]["b"]["status"], "completed", "{failed}");
    assert_eq!(failed["steps"]["a"]["status"], "completed", "{failed}");
    // The journal was not ended: the run can be taken up again once the store answers.
    broken.store(false, Ordering::SeqCst);
    let info = RunBackend::info(&RunStore::open(&data).unwrap(), &id).await;
    assert_ne!(info.status, "failed", "{info:?}");
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn a_run_store_out_of_reach_answers_the_history_and_taking_up_a_run_with_503_and_no_cause() {
    let (app, broken, data) = over_unreadable_store(true);
    for uri in ["/api/history", "/api/history/run-1"] {
        let (code, body) = app.get(uri).await;
        assert_eq!(code, StatusCode::SERVICE_UNAVAILABLE, "{uri}: {body}");
        assert_eq!(body["error"]["code"], "HISTORY_UNAVAILABLE", "{body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("run history cannot be read now"), "{body}");
        assert!(!message.contains("the store is down"), "{body}");
    }
    // Nor can a run be taken up: 503, not a conflict quoting the store.
    for (uri, body) in [
        ("/api/runs/run-1/continue", json!({})),
        (
            "/api/runs/run-1/input",
            json!({"input": {"approved": true}}),
        ),
    ] {
        let (code, body) = app.post(uri, body).await;
        assert_eq!(code, StatusCode::SERVICE_UNAVAILABLE, "{uri}: {body}");
        assert_eq!(body["error"]["code"], "HISTORY_UNAVAILABLE", "{body}");
        assert!(!body.to_string().contains("store is down"), "{body}");
    }
    // Once the store answers again, so does the history.
    broken.store(false, Ordering::SeqCst);
    let (code, body) = app.get("/api/history").await;
    assert_eq!(code, StatusCode::OK, "{body}");
    let _ = std::fs::remove_dir_all(&data);
}
