//! `vai explain`: the topic list, a loosely named topic wrapped for the terminal, the tool's
//! object with `--json`, and an unknown topic exiting 2 with the list.

use super::{scratch, text, vai};
use std::process::{Command, Output};

/// `vai explain …` with `COLUMNS` set (or unset).
fn explain(args: &[&str], columns: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vai"));
    cmd.arg("explain")
        .args(args)
        .current_dir(std::env::temp_dir())
        .env("NO_COLOR", "1");
    match columns {
        Some(c) => cmd.env("COLUMNS", c),
        None => cmd.env_remove("COLUMNS"),
    };
    cmd.output().expect("run vai")
}

#[test]
fn without_a_topic_it_lists_the_topics_one_a_line() {
    let out = vai(&["explain"], &scratch("explain-list"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("Topics (vai explain <topic>):\n"), "{s}");
    assert!(s.contains("\n  embeddings     Embeddings\n"), "{s}");
    assert!(s.contains("\n  vector-search  Vector search\n"), "{s}");
    assert_eq!(s.lines().count(), 12, "a heading and 11 topics: {s}");

    let json = vai(&["explain", "--json"], &scratch("explain-list"));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        v[0],
        serde_json::json!({"key": "embeddings", "title": "Embeddings"})
    );
}

#[test]
fn a_loosely_named_topic_is_wrapped_to_the_terminal() {
    let out = explain(&["what", "is", "a", "reranker?"], Some("60"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("Reranking\n=========\n\nReranking is a second"),
        "{s}"
    );
    assert!(
        s.contains("In a workflow\n\n  rerank step\n    This step gives"),
        "{s}"
    );
    assert!(
        s.contains("  https://docs.voyageai.com/docs/reranker"),
        "{s}"
    );
    assert!(s.lines().all(|l| l.chars().count() <= 60), "{s}");
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));

    // A step's tool opens the topic that holds its note.
    let merge = text(&explain(&["merge"], None).stdout);
    assert!(
        merge.starts_with("Retrieval-augmented generation (RAG)\n"),
        "{merge}"
    );
    assert!(
        merge.contains("\n  merge step\n    This step joins"),
        "{merge}"
    );

    // Without COLUMNS: 80.
    let wide = text(&explain(&["rag"], None).stdout);
    let longest = wide.lines().map(|l| l.chars().count()).max().unwrap();
    assert!((70..=80).contains(&longest), "{longest}: {wide}");
}

#[test]
fn json_is_the_explain_tools_output() {
    let out = explain(&["Vector_Search", "--json"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["found"], true);
    assert_eq!(v["topic"], "Vector search");
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .starts_with("Vector search finds"),
        "{v}"
    );
    assert!(v["links"].as_array().is_some_and(|l| !l.is_empty()), "{v}");
}

#[test]
fn an_unknown_topic_lists_the_topics_and_exits_2() {
    let out = explain(&["blockchain"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "no topic \"blockchain\"; topics: embeddings, reranking, vector-search, rag,"
        ),
        "{err}"
    );

    let json = explain(&["blockchain", "--json"], None);
    assert_eq!(json.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["found"], false);
    assert_eq!(v["topic"], "blockchain");
}
