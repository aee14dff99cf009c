//! Run history from the command line: runs listed and shown with each step's inputs, timing
//! and output; two runs compared; a run restarted from a step without calling what came before
//! it again (a counting loopback server proves it); pruning.

use super::runs::{Fake, json_of, run};
use super::{scratch, text};
use serde_json::{Value, json};
use std::path::Path;

/// A workflow whose first step calls the fake server and whose second shapes the answer.
fn write_workflow(dir: &Path, port: u16, greeting: &str) {
    let wf = json!({"name": "fetch-and-shape", "inputs": {"who": {"type": "string", "default": "Ada"}},
        "steps": [
        {"id": "fetch", "tool": "http", "inputs": {"url": format!("http://127.0.0.1:{port}/first"), "method": "POST", "body": {"who": "{{ inputs.who }}"}}},
        {"id": "shape", "tool": "template", "inputs": {"text": format!("{greeting} {{{{ inputs.who }}}}: {{{{ fetch.output.body.id }}}}")}}
    ], "output": "{{ shape.output.text }}"});
    std::fs::write(dir.join("fetch.vai-workflow.json"), wf.to_string()).unwrap();
}

fn run_json(dir: &Path, args: &[&str]) -> Value {
    let out = run(dir, args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    json_of(&out)
}

#[test]
fn runs_are_listed_shown_and_compared_step_by_step() {
    let dir = scratch("history-diff");
    let fake = Fake::start();
    write_workflow(&dir, fake.port, "Hello");
    let wf = "fetch.vai-workflow.json";
    let allow = ["--allow-host", "127.0.0.1"];
    let a = run_json(
        &dir,
        &[&["workflow", "run", wf, "--json"][..], &allow].concat(),
    );
    let a_id = a["runId"].as_str().expect("runId in --json").to_string();
    let out = run(
        &dir,
        &[&["workflow", "run", wf, "--input", "who=Grace"][..], &allow].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The progress lines end with the run's id.
    let last = text(&out.stderr)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let b_id = last.rsplit("run ").next().unwrap().trim().to_string();
    assert!(last.starts_with("done in"), "{last}");

    let listed = run_json(&dir, &["runs", "list", "--workflow", "fetch", "--json"]);
    let ids: Vec<&str> = listed["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["runId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [b_id.as_str(), a_id.as_str()], "newest first");
    assert_eq!(listed["runs"][0]["inputs"], "who=Grace");
    let none = run_json(&dir, &["runs", "list", "--workflow", "other", "--json"]);
    assert_eq!(none["runs"].as_array().unwrap().len(), 0);
    let bad = run(&dir, &["runs", "list", "--since", "yesterday"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("--since \"yesterday\""),
        "{}",
        text(&bad.stderr)
    );

    // Each step's resolved inputs, output, status and timing are kept.
    let shown = run_json(&dir, &["runs", "show", &b_id, "--json"]);
    assert_eq!(shown["status"], "completed");
    assert_eq!(shown["output"], "Hello Grace: x1");
    let fetch = &shown["steps"][0];
    assert_eq!(fetch["id"], "fetch");
    assert_eq!(fetch["status"], "completed");
    assert_eq!(fetch["inputs"]["body"], json!({"who": "Grace"}));
    assert_eq!(fetch["output"]["body"]["id"], "x1");
    assert!(
        fetch["durationMs"].is_u64() && fetch["startedAt"].is_u64(),
        "{fetch}"
    );
    let step = run_json(&dir, &["runs", "show", &b_id, "--step", "shape"]);
    assert_eq!(step["output"]["text"], "Hello Grace: x1");

    let diff = run_json(&dir, &["runs", "diff", &a_id, &b_id, "--json"]);
    assert_eq!(diff["inputs"], json!([{"field": "who", "b": "Grace"}]));
    assert_eq!(diff["workflowChanges"], json!([]));
    let shape = diff["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "shape")
        .unwrap();
    assert_eq!(shape["change"], "changed");
    assert_eq!(shape["inputs"][0]["a"], "Hello Ada: x1");
    assert_eq!(shape["inputs"][0]["b"], "Hello Grace: x1");
    let words = run(&dir, &["runs", "diff", &a_id, &b_id]);
    assert!(
        text(&words.stdout).contains("~ shape (template)"),
        "{}",
        text(&words.stdout)
    );

    // Runs of unrelated workflows are not compared.
    std::fs::write(
        dir.join("other.vai-workflow.json"),
        r#"{"name": "other", "steps": [{"id": "x", "tool": "template", "inputs": {"text": "x"}}]}"#,
    )
    .unwrap();
    let other = run_json(
        &dir,
        &["workflow", "run", "other.vai-workflow.json", "--json"],
    );
    let refused = run(
        &dir,
        &["runs", "diff", &a_id, other["runId"].as_str().unwrap()],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("unrelated workflows"),
        "{}",
        text(&refused.stderr)
    );
}

#[test]
fn a_restart_replays_the_steps_before_it_without_calling_them_again() {
    let dir = scratch("history-rerun");
    let fake = Fake::start();
    write_workflow(&dir, fake.port, "Hello");
    let wf = "fetch.vai-workflow.json";
    let first = run_json(
        &dir,
        &["workflow", "run", wf, "--allow-host", "127.0.0.1", "--json"],
    );
    let id = first["runId"].as_str().unwrap().to_string();
    assert_eq!(fake.count("/first"), 1);

    // Edit the downstream step, then restart from it: the fetch is not called again.
    write_workflow(&dir, fake.port, "Welcome");
    let out = run(
        &dir,
        &[
            "runs",
            "rerun",
            &id,
            "--from",
            "shape",
            "--allow-host",
            "127.0.0.1",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = json_of(&out);
    assert_eq!(again["output"], "Welcome Ada: x1");
    assert_eq!(
        fake.count("/first"),
        1,
        "the upstream step was replayed, not called"
    );
    assert!(
        text(&out.stderr).contains("step \"shape\" changed"),
        "{}",
        text(&out.stderr)
    );

    let new_id = again["runId"].as_str().unwrap().to_string();
    let shown = run_json(&dir, &["runs", "show", &new_id, "--json"]);
    assert_eq!(shown["from"], json!({"runId": id, "step": "shape"}));
    assert_eq!(shown["steps"][0]["replayed"], true);
    assert_eq!(shown["steps"][0]["output"]["body"]["id"], "x1");
    assert!(shown["steps"][1].get("replayed").is_none());

    // From the first step everything runs again.
    let all = run_json(
        &dir,
        &[
            "runs",
            "rerun",
            &id,
            "--from",
            "fetch",
            "--allow-host",
            "127.0.0.1",
            "--json",
        ],
    );
    assert_eq!(all["status"], "completed");
    assert_eq!(fake.count("/first"), 2);

    let unknown = run(&dir, &["runs", "rerun", &id, "--from", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        text(&unknown.stderr).contains("no step \"nope\" (its steps: fetch, shape)"),
        "{}",
        text(&unknown.stderr)
    );
}

/// Three runs of a one-step workflow in `dir`, oldest first.
fn three_runs(dir: &Path) -> Vec<String> {
    std::fs::write(
        dir.join("t.vai-workflow.json"),
        r#"{"name": "t", "steps": [{"id": "x", "tool": "template", "inputs": {"text": "x"}}]}"#,
    )
    .unwrap();
    (0..3)
        .map(|_| {
            run_json(dir, &["workflow", "run", "t.vai-workflow.json", "--json"])["runId"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn prune_keeps_the_newest_runs_and_says_what_it_removed() {
    let dir = scratch("history-prune");
    let ids = three_runs(&dir);
    let pruned = run_json(&dir, &["runs", "prune", "--keep", "1", "--json"]);
    let mut removed: Vec<String> = serde_json::from_value(pruned["runIds"].clone()).unwrap();
    removed.sort();
    let mut oldest = ids[..2].to_vec();
    oldest.sort();
    assert_eq!(removed, oldest);
    let left = run_json(&dir, &["runs", "list", "--json"]);
    assert_eq!(left["runs"].as_array().unwrap().len(), 1);
    assert_eq!(left["runs"][0]["runId"], ids[2].as_str());
}

#[test]
fn the_project_file_sets_how_many_runs_history_keeps() {
    let dir = scratch("history-retention");
    std::fs::write(
        dir.join(".vai.json"),
        r#"{"runs": {"keep": 2, "maxAge": "7d"}}"#,
    )
    .unwrap();
    let ids = three_runs(&dir);
    let listed = run_json(&dir, &["runs", "list", "--json"]);
    let mut kept: Vec<String> = listed["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["runId"].as_str().unwrap().to_string())
        .collect();
    kept.sort();
    let mut newest = ids[1..].to_vec();
    newest.sort();
    assert_eq!(kept, newest, "runs.keep 2 keeps the two newest runs");
    // `vai runs prune` without flags applies the same limits: nothing more to remove.
    let pruned = run_json(&dir, &["runs", "prune", "--json"]);
    assert_eq!(pruned["runIds"], json!([]));

    std::fs::write(dir.join(".vai.json"), r#"{"runs": {"keep": 0}}"#).unwrap();
    let bad = run(&dir, &["runs", "list"]);
    assert_eq!(bad.status.code(), Some(2));
    let said = text(&bad.stderr);
    assert!(
        said.contains(".vai.json") && said.contains("runs.keep must be a whole number"),
        "{said}"
    );
}
