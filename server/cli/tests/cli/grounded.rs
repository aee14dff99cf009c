//! The RAG built-ins answer offline from their sources: with nothing configured, the small local
//! model quotes the sentences that answer, each cited, or says the sources do not answer.

use super::{llm_dir, offline_command};
use serde_json::Value;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vai-grounded-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run built-in `workflow` offline with `inputs`; its `--json` result.
fn run(home: &std::path::Path, workflow: &str, inputs: &[&str]) -> Value {
    let mut command = offline_command(home, &llm_dir());
    command.args(["workflow", "run", workflow, "--json"]);
    for input in inputs {
        command.args(["--input", input]);
    }
    let out = command.output().expect("run vai");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{workflow}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{workflow}: {e}: {stdout}"))
}

/// Every sentence of `answer` ends with a citation, and every cited passage is in `sources`'
/// texts.
fn assert_quoted(workflow: &str, answer: &str, sources: &[&str]) {
    assert!(answer.contains(" [1]"), "{workflow}: {answer}");
    assert!(!answer.contains("```"), "{workflow}: {answer}");
    for piece in answer.split('[').skip(1) {
        assert!(
            piece.starts_with(|c: char| c.is_ascii_digit()),
            "{workflow}: {answer}"
        );
    }
    for quote in answer
        .split(" [")
        .map(|q| q.split_once("] ").map_or(q, |(_, q)| q))
    {
        let quote = quote
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == ']')
            .trim();
        if !quote.is_empty() {
            assert!(
                sources.iter().any(|s| s.contains(quote)),
                "{workflow}: \"{quote}\" is in no source"
            );
        }
    }
}

/// The texts of a run's `output.sources`.
fn texts_of(out: &Value) -> Vec<&str> {
    out["output"]["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect()
}

#[test]
fn the_rag_built_ins_answer_offline_by_quoting_their_sources() {
    let home = scratch("builtins");

    let out = run(
        &home,
        "rag-chat",
        &[
            "question=How do I rotate an API key?",
            "collection=api_docs",
        ],
    );
    let answer = out["output"]["answer"].as_str().unwrap();
    assert_quoted("rag-chat", answer, &texts_of(&out));
    assert!(answer.contains("Roll key"), "{answer}");

    let out = run(
        &home,
        "research-and-summarize",
        &["question=What happens when a refresh token is used twice?"],
    );
    let summary = out["output"]["summary"].as_str().unwrap();
    assert_quoted("research-and-summarize", summary, &texts_of(&out));
    assert!(summary.contains("revokes the whole chain"), "{summary}");

    let out = run(
        &home,
        "rag-with-guardrails",
        &["question=How long do idempotency keys last?"],
    );
    let response = out["output"]["response"].as_str().unwrap();
    assert!(response.contains("24 hours"), "{response}");
    assert!(response.contains("[1]"), "{response}");

    let out = run(&home, "kb-health-report", &[]);
    let report = out["output"]["text"].as_str().unwrap();
    assert!(
        report.starts_with("In short: the knowledge base holds 3 collections. [1]"),
        "{report}"
    );
    assert_eq!(out["output"]["provider"], "local");
}
