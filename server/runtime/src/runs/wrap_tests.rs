//! The sink wrapper the run manager is given sees each run's events, by run id, and passes them
//! on to the run's own log.

use super::*;
use serde_json::json;
use vai_workflow::{Mode, NoChildren, RunEvent, compile_with};

/// Counts the events of each run it wraps, and passes them on.
#[derive(Default)]
struct Seen(Mutex<Vec<(String, String)>>);

struct Counting {
    run_id: String,
    seen: Arc<Seen>,
    inner: Arc<dyn EventSink>,
}

impl EventSink for Counting {
    fn emit(&self, event: RunEvent) {
        let kind = serde_json::to_value(&event).unwrap()["type"].to_string();
        self.seen
            .0
            .lock()
            .unwrap()
            .push((self.run_id.clone(), kind));
        self.inner.emit(event);
    }
}

/// Start, on `manager`, a run of one step that fails at once.
fn start_stop(manager: &RunManager) -> Arc<Run> {
    let workflow = json!({"name": "stop", "steps": [
        {"id": "halt", "tool": "fail", "inputs": {"message": "no"}}]});
    let plan = compile_with(
        &workflow,
        &manager.0.registry,
        Mode::Strict,
        &NoChildren,
        "stop.json",
    )
    .plan
    .expect("valid");
    manager
        .start(StartRequest {
            plan,
            inputs: Map::new(),
            workflow_id: None,
            only: None,
            definition_version: String::new(),
            step_through: None,
            restart: None,
        })
        .unwrap()
}

#[tokio::test]
async fn every_run_goes_through_the_wrapped_sink_and_still_reaches_its_log() {
    let manager = RunManager::new(
        Arc::new(Registry::new()),
        None,
        RunBudget::default(),
        RunLimits::default(),
    );
    let seen = Arc::new(Seen::default());
    let for_hook = seen.clone();
    manager.wrap_sinks(Arc::new(move |run_id, inner| {
        Arc::new(Counting {
            run_id: run_id.to_string(),
            seen: for_hook.clone(),
            inner,
        })
    }));
    let run = start_stop(&manager);
    let ended = async {
        while run.summary().status == RunState::Running {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), ended)
        .await
        .expect("the run ends");

    let seen = seen.0.lock().unwrap().clone();
    let kinds: Vec<&str> = seen.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "\"run_started\"",
            "\"step_started\"",
            "\"step_failed\"",
            "\"run_finished\""
        ]
    );
    assert!(seen.iter().all(|(id, _)| *id == run.id));
    assert_eq!(
        run.summary().status,
        RunState::Failed,
        "the run's log saw the end"
    );
}

#[tokio::test]
async fn two_managers_first_runs_get_different_ids_even_in_the_same_millisecond() {
    // Playgrounds on two machines sharing a run store each count from 1: the time and the count
    // alone could name two runs alike.
    let first_run_id = || {
        let manager = RunManager::new(
            Arc::new(Registry::new()),
            None,
            RunBudget::default(),
            RunLimits::default(),
        );
        start_stop(&manager).id.clone()
    };
    let (a, b) = (first_run_id(), first_run_id());
    // What follows the time: the count (1 for both) and the random part.
    let after_time = |id: &str| id.splitn(3, '-').nth(2).unwrap_or_default().to_string();
    assert!(after_time(&a).starts_with("1-"), "{a}");
    assert_ne!(after_time(&a), after_time(&b), "{a} {b}");
    assert!(vai_workflow::journal::valid_id(&a), "{a}");
}
