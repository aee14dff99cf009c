//! Tokens and cost as a user sees them: per step and per run on stderr and in `--json`, a
//! `.vai.json` price reaching a step, bad prices named by file and field, `vai models`, and the
//! dry run's estimate.

use super::support::offline_command;
use super::{scratch, text};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;

fn offline(args: &[&str], home: &Path) -> Output {
    offline_command(home, &home.join("no-local-llm"))
        .args(args)
        .output()
        .expect("run vai")
}

fn write(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// One `embed` step on the local model, which a `.vai.json` price makes cost $1 a token.
fn priced_project(name: &str) -> std::path::PathBuf {
    let home = scratch(name);
    write(
        &home.join(".vai.json"),
        &json!({"pricing": {"all-minilm-l6-v2": {"input": 1_000_000}}}),
    );
    write(
        &home.join("embed.vai-workflow.json"),
        &json!({"name": "Embed", "steps": [
            {"id": "vec", "tool": "embed", "inputs": {"text": "hello cost"}}
        ], "output": "{{ vec.output.dimensions }}"}),
    );
    home
}

#[test]
fn a_vai_json_price_reaches_the_step_the_run_and_the_progress_lines() {
    let home = priced_project("cost-override");
    let out = offline(
        &["workflow", "run", "embed.vai-workflow.json", "--json"],
        &home,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let usage = &v["usage"];
    let tokens = usage["embedTokens"].as_u64().expect("embed tokens");
    assert!(tokens > 0, "{v}");
    // A local model is free, unless the project prices it: then the project's price counts.
    assert_eq!(usage["cost"]["pricedAt"], ".vai.json", "{v}");
    assert_eq!(usage["cost"]["usd"], json!(tokens as f64), "{v}");
    assert_eq!(usage["cost"]["inputPerMTok"], json!(1_000_000.0), "{v}");
    // The step's line and the run's last line say what it used and cost.
    let dollars = format!("{tokens} tok · ${tokens}.00");
    assert!(err.contains(&format!("· local · {dollars}]")), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("done in ") && l.contains(&format!("{dollars} · run r"))),
        "{err}"
    );
}

#[test]
fn a_local_model_costs_nothing_and_says_so() {
    let home = scratch("cost-local");
    write(
        &home.join("embed.vai-workflow.json"),
        &json!({"name": "Embed", "steps": [
            {"id": "vec", "tool": "embed", "inputs": {"text": "hello"}}
        ]}),
    );
    let out = offline(
        &["workflow", "run", "embed.vai-workflow.json", "--json"],
        &home,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["usage"]["cost"]["usd"], json!(0.0), "{v}");
    assert_eq!(v["usage"]["cost"]["pricedAt"], "local", "{v}");
    let err = text(&out.stderr);
    assert!(
        err.contains("· local · ") && err.contains(" tok · $0]"),
        "{err}"
    );
}

#[test]
fn a_bad_price_names_the_file_and_the_field() {
    for (pricing, field) in [
        (
            json!({"gpt-4o": {"input": "cheap"}}),
            "pricing.\"gpt-4o\".input must be a number",
        ),
        (
            json!({"gpt-4o": {"input": 1, "output": -3}}),
            "pricing.\"gpt-4o\".output is -3",
        ),
    ] {
        let home = priced_project("cost-bad");
        write(&home.join(".vai.json"), &json!({"pricing": pricing}));
        let out = offline(&["workflow", "run", "embed.vai-workflow.json"], &home);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(".vai.json: not a valid project file: ") && err.contains(field),
            "{err}"
        );
    }
}

#[test]
fn models_lists_the_price_table_with_its_date_and_the_project_s_prices() {
    let home = priced_project("cost-models");
    let out = offline(&["models", "--json"], &home);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["pricedAt"].as_str().unwrap().starts_with("20"), "{v}");
    let model = |name: &str| {
        v["models"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["model"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {v}"))
    };
    assert_eq!(model("claude-sonnet-4-5")["outputPerMTok"], json!(15.0));
    assert_eq!(model("all-minilm-l6-v2")["pricedAt"], ".vai.json");
    let shown = text(&offline(&["models"], &home).stdout);
    assert!(shown.contains("anthropic · https://"), "{shown}");
}

#[test]
fn a_dry_run_estimates_the_cost_from_the_same_table() {
    let home = priced_project("cost-dry-run");
    let out = offline(
        &["workflow", "run", "embed.vai-workflow.json", "--dry-run"],
        &home,
    );
    let shown = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // One embedding call of 500 tokens at the project's $1 a token.
    assert!(
        shown.contains("Estimated cost:\n  per run          ≈ $500.00\n  (at the price table of "),
        "{shown}"
    );
    let out = offline(
        &[
            "workflow",
            "run",
            "embed.vai-workflow.json",
            "--dry-run",
            "--json",
        ],
        &home,
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["apiCalls"]["cost"]["fixed"]["usd"], json!(500.0), "{v}");
    assert_eq!(v["apiCalls"]["cost"]["fixed"]["pricedAt"], ".vai.json");
}
