//! A finished run of a saved workflow becomes a test case that `vai workflow test` passes.

use crate::support::{self, TestApp};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

/// `lookup` calls a (fake) provider; `shape` and `answer` only reshape what it found.
fn flow() -> Value {
    json!({"name": "Lookup", "inputs": {"q": {"type": "string", "required": true}},
           "steps": [
               {"id": "find", "tool": "lookup", "inputs": {"query": "{{ inputs.q }}"}},
               {"id": "shape", "tool": "echo", "inputs": {"first": "{{ find.output.results[0].text }}"}},
               {"id": "never", "tool": "echo", "condition": "{{ find.output.resultCount > 5 }}", "inputs": {}}
           ],
           "output": {"answer": "{{ shape.output.first }}", "hits": "{{ find.output.results }}", "count": "{{ find.output.resultCount }}"}})
}

async fn saved_and_run(app: &TestApp, inputs: Value) -> String {
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "lookup", "definition": flow(), "overwrite": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app
        .post(
            "/api/runs",
            json!({"definition": flow(), "inputs": inputs, "workflowId": "file:lookup.vai-workflow.json"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let run = body["runId"].as_str().unwrap().to_string();
    assert_eq!(app.wait_finished(&run).await["status"], "completed");
    run
}

#[tokio::test]
async fn a_completed_run_becomes_a_case_that_passes() {
    let app = TestApp::new();
    let run = saved_and_run(&app, json!({"q": "rust"})).await;
    let (status, saved) = app
        .post(
            &format!("/api/runs/{run}/test-case"),
            json!({"name": "basic"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["fileName"], "lookup.basic.test.json");
    assert_eq!(saved["path"], "tests/lookup.basic.test.json");
    let text = std::fs::read_to_string(app.dir.join("tests/lookup.basic.test.json")).unwrap();
    assert_eq!(saved["text"], text);

    let case = vai_workflow::test_cases::parse_case(&text, "lookup.basic.test.json").unwrap();
    assert_eq!(case.inputs, *json!({"q": "rust"}).as_object().unwrap());
    assert_eq!(
        case.mocks.keys().collect::<Vec<_>>(),
        ["find"],
        "only the provider step is mocked"
    );
    let status = |id: &str| format!("{:?}", case.expect.steps[id].status);
    assert_eq!(
        (status("find"), status("shape"), status("never")),
        ("Completed".into(), "Completed".into(), "Skipped".into())
    );
    let answer = case.expect.output["answer"].equals.clone().unwrap();
    assert!(answer.as_str().unwrap().starts_with("hit "), "{answer}");
    assert_eq!(case.expect.output["hits"].min_length, Some(1));
    assert!(case.expect.no_errors);

    // `vai workflow test` runs the case against the file: it passes, because `find` is
    // mocked (unmocked, the fake answers differently on every call).
    let registry = support::registry();
    let compiled = vai_workflow::compile(&flow(), &registry, vai_workflow::Mode::Strict);
    let plan = compiled.plan.unwrap();
    let result = vai_workflow::test_cases::run_case(
        plan.clone(),
        Arc::clone(&registry),
        &case,
        "case",
        vai_workflow::Limits::DEFAULT,
    )
    .await;
    assert!(result.passed, "{:#?}", result.assertions);
    let mut unmocked = case.clone();
    unmocked.mocks.clear();
    let result = vai_workflow::test_cases::run_case(
        plan,
        registry,
        &unmocked,
        "case",
        vai_workflow::Limits::DEFAULT,
    )
    .await;
    assert!(
        !result.passed,
        "the expectations depend on the mocked output"
    );

    // The same name again: a conflict, unless overwriting.
    let url = format!("/api/runs/{run}/test-case");
    let (status, body) = app.post(&url, json!({"name": "basic"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, _) = app
        .post(&url, json!({"name": "basic", "overwrite": true}))
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn only_completed_runs_of_the_saved_file_as_it_is() {
    let app = TestApp::new();
    let run = saved_and_run(&app, json!({"q": "rust"})).await;
    let url = format!("/api/runs/{run}/test-case");

    let (status, body) = app.post(&url, json!({"name": "no/slash"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["code"], "INVALID_NAME");

    // The file changed since the run.
    let mut edited = flow();
    edited["name"] = json!("Edited");
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "lookup", "definition": edited, "overwrite": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app.post(&url, json!({"name": "x"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("save the workflow, run it again, then save the test case"),
        "{body}"
    );

    // A built-in is not a file in the directory.
    let (_, body) = app
        .post(
            "/api/runs",
            json!({"definition": support::chain(), "inputs": {"q": "x"}, "workflowId": "builtin:chain"}),
        )
        .await;
    let builtin = body["runId"].as_str().unwrap().to_string();
    app.wait_finished(&builtin).await;
    let (status, body) = app
        .post(
            &format!("/api/runs/{builtin}/test-case"),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("save the workflow first"),
        "{body}"
    );

    // A run still going.
    let (_, body) = app
        .post(
            "/api/runs",
            json!({"definition": support::stuck(), "workflowId": "file:lookup.vai-workflow.json"}),
        )
        .await;
    let stuck = body["runId"].as_str().unwrap().to_string();
    let (status, body) = app
        .post(
            &format!("/api/runs/{stuck}/test-case"),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("wait for it to complete"),
        "{body}"
    );
    app.post(&format!("/api/runs/{stuck}/cancel"), json!({}))
        .await;

    let (status, _) = app
        .post("/api/runs/run-nope/test-case", json!({"name": "x"}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A run's workflow id is one the server resolved: a client cannot name a file elsewhere (the
/// test case would be written beside it), nor learn from the answer whether such a file exists.
#[tokio::test]
async fn a_workflow_id_the_library_does_not_hold_is_refused_at_the_start() {
    let app = TestApp::new();
    let other = app.dir.with_extension("other");
    let _ = std::fs::remove_dir_all(&other);
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("w2.vai-workflow.json"),
        vai_workflow::format::format(&flow()),
    )
    .unwrap();
    let other_name = other.file_name().unwrap().to_str().unwrap();
    let mut answers = Vec::new();
    for id in [
        format!("file:./../{other_name}/w2.vai-workflow.json"),
        format!("file:../{other_name}/nothing-here.vai-workflow.json"),
        "file:sub/inner.vai-workflow.json".to_string(),
        "file:link.vai-workflow.json".to_string(),
        "file:/etc/passwd".to_string(),
        "builtin:no-such".to_string(),
        "lookup".to_string(),
    ] {
        let (status, body) = app
            .post(
                "/api/runs",
                json!({"definition": flow(), "inputs": {"q": "x"}, "workflowId": id}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{id}: {body}");
        assert_eq!(body["error"]["code"], "BAD_REQUEST", "{id}");
        let message = body["error"]["message"]
            .as_str()
            .unwrap()
            .replace(&id, "<id>");
        answers.push(message);
    }
    answers.dedup();
    assert_eq!(
        answers.len(),
        1,
        "every refusal reads the same: {answers:?}"
    );
    assert!(
        !other.join("tests").exists(),
        "nothing was written beside the foreign file"
    );
    std::fs::remove_dir_all(&other).unwrap();
}

/// `tests` swapped with a link to another directory, over and over (`renameat2` with
/// `RENAME_EXCHANGE`) while cases are saved: nothing lands outside the start directory, every
/// answer is a save or a refusal, and no temporary file is left anywhere.
#[tokio::test]
async fn a_tests_directory_swapped_for_a_link_never_receives_a_case_outside() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let app = TestApp::new();
    let run = saved_and_run(&app, json!({"q": "rust"})).await;
    let outside = app.dir.with_extension("outside");
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(app.dir.join("tests")).unwrap();
    std::os::unix::fs::symlink(&outside, app.dir.join("swap")).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, dir) = (stop.clone(), app.dir.clone());
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(
                    rustix::fs::CWD,
                    dir.join("tests"),
                    rustix::fs::CWD,
                    dir.join("swap"),
                    rustix::fs::RenameFlags::EXCHANGE,
                )
                .unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let url = format!("/api/runs/{run}/test-case");
    let (mut saved, mut refused) = (0, 0);
    for i in 0..300 {
        let (status, body) = app
            .post(&url, json!({"name": format!("c{i}"), "overwrite": true}))
            .await;
        match status {
            StatusCode::OK => saved += 1,
            StatusCode::CONFLICT => refused += 1,
            other => panic!("attempt {i}: {other} {body}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(swaps > 300, "the swap raced the saves ({swaps} swaps)");

    let names = |dir: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(
        names(&outside),
        Vec::<String>::new(),
        "nothing went through the link"
    );
    // Whichever name the directory has now, it holds every saved case and nothing else.
    let real = if std::fs::symlink_metadata(app.dir.join("tests"))
        .unwrap()
        .is_dir()
    {
        app.dir.join("tests")
    } else {
        app.dir.join("swap")
    };
    let cases = names(&real);
    assert_eq!(
        cases.len(),
        saved,
        "saved {saved}, refused {refused}: {cases:?}"
    );
    assert!(cases.iter().all(|n| n.ends_with(".test.json")), "{cases:?}");
    assert!(
        names(&app.dir).iter().all(|n| !n.ends_with(".tmp")),
        "no temporary file is left"
    );
    std::fs::remove_dir_all(&outside).unwrap();
}
