//! The model steps offline: the support-ticket router chooses by embedding similarity on the
//! sample knowledge base, searches only the chosen route's collection and says why.

use super::{llm_dir, offline_command};
use serde_json::Value;

/// Run the `support-router` example offline on `question`; its `--json` result.
fn route(home: &std::path::Path, question: &str) -> Value {
    let out = offline_command(home, &llm_dir())
        .args(["workflow", "run", "support-router", "--json", "--input"])
        .arg(format!("question={question}"))
        .output()
        .expect("run vai");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap()
}

fn step<'a>(run: &'a Value, id: &str) -> &'a Value {
    run["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()
}

#[test]
fn the_support_router_sends_each_question_to_its_collection_offline() {
    let home = std::env::temp_dir().join(format!("vai-router-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    for (question, chosen, searched, skipped, collection) in [
        (
            "I was charged twice on my last invoice, can I get a refund?",
            "billing",
            "billing_docs",
            "ops_docs",
            "api_docs",
        ),
        (
            "The primary database went down: how does failover work?",
            "technical",
            "ops_docs",
            "billing_docs",
            "architecture",
        ),
    ] {
        let run = route(&home, question);
        let triage = &step(&run, "triage")["output"];
        assert_eq!(triage["route"], chosen, "{question}: {triage}");
        assert_eq!(
            triage["method"], "similarity",
            "the small local model does not judge routes"
        );
        let scores = triage["scores"].as_object().unwrap();
        assert_eq!(scores.len(), 2, "{triage}");
        assert!(
            triage["usage"]["embedTokens"].as_u64().unwrap() > 0,
            "{triage}"
        );
        assert_eq!(
            step(&run, skipped)["reason"],
            format!("router \"triage\" chose \"{chosen}\"")
        );
        assert_eq!(step(&run, searched)["status"], "completed");
        let sources = run["output"]["sources"].as_array().unwrap();
        assert!(!sources.is_empty(), "{question}");
        for s in sources {
            assert_eq!(s["metadata"]["collection"], collection, "{question}: {s}");
        }
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_dry_run_lists_which_steps_each_route_runs() {
    let home = std::env::temp_dir().join(format!("vai-router-plan-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let out = offline_command(&home, &llm_dir())
        .args(["workflow", "run", "support-router", "--dry-run"])
        .args(["--input", "question=x"])
        .output()
        .expect("run vai");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("routes: billing → billing_docs; technical → ops_docs (one runs)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&home);
}
