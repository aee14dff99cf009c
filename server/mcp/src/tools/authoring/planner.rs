//! `workflow_plan`: the library's runnable workflows ranked for a goal in plain words. The
//! ranking is lexical, so it needs no model and can say why a workflow matched: BM25 over each
//! workflow's name (which counts twice), description, and its inputs' names and descriptions,
//! with words cut to a rough stem so "approve", "approval" and "approved" meet.

use super::args::string;
use crate::schema;
use crate::server::McpServer;
use crate::tools::workflows::listed;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};

/// How the result says it ranked.
const METHOD: &str = "lexical: BM25 over name, description and inputs";

/// Workflows returned at most.
const TOP: usize = 5;

/// BM25's term-frequency saturation and length normalisation, at their usual values.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Words that say nothing about what a workflow does.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "get", "have",
    "how", "i", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "please", "some",
    "that", "the", "their", "them", "then", "this", "to", "want", "we", "what", "when", "which",
    "with", "would", "you", "your",
];

/// One workflow as text, field by field (`name`, `description`, `inputs`).
pub(super) struct Doc {
    fields: Vec<(&'static str, Vec<String>)>,
}

impl Doc {
    pub(super) fn new(fields: &[(&'static str, &str)]) -> Self {
        Self {
            fields: fields.iter().map(|(f, text)| (*f, terms(text))).collect(),
        }
    }

    /// Each term's weighted count: the name's terms count twice.
    fn counts(&self) -> HashMap<&str, f64> {
        let mut out = HashMap::new();
        for (field, terms) in &self.fields {
            let weight = if *field == "name" { 2.0 } else { 1.0 };
            for t in terms {
                *out.entry(t.as_str()).or_insert(0.0) += weight;
            }
        }
        out
    }

    fn fields_with(&self, term: &str) -> Vec<&'static str> {
        self.fields
            .iter()
            .filter(|(_, terms)| terms.iter().any(|t| t == term))
            .map(|(f, _)| *f)
            .collect()
    }
}

/// A ranked document: its index, score and why it matched.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Ranked {
    pub(super) index: usize,
    pub(super) score: f64,
    pub(super) why: String,
}

/// The documents that share a term with `goal`, best first (ties by index).
pub(super) fn rank(goal: &str, docs: &[Doc]) -> Vec<Ranked> {
    // Each query term once, named by the first word of the goal it came from.
    let mut query: Vec<(String, String)> = Vec::new();
    for word in words(goal) {
        if let Some(term) = term(&word)
            && !query.iter().any(|(t, _)| *t == term)
        {
            query.push((term, word));
        }
    }
    let counts: Vec<HashMap<&str, f64>> = docs.iter().map(Doc::counts).collect();
    let lengths: Vec<f64> = counts.iter().map(|c| c.values().sum()).collect();
    let n = docs.len() as f64;
    let average = (lengths.iter().sum::<f64>() / n.max(1.0)).max(1.0);
    let mut ranked: Vec<Ranked> = Vec::new();
    for (index, doc_counts) in counts.iter().enumerate() {
        let mut score = 0.0;
        let mut matched = Vec::new();
        for (term, word) in &query {
            let Some(&tf) = doc_counts.get(term.as_str()) else {
                continue;
            };
            let df = counts
                .iter()
                .filter(|c| c.contains_key(term.as_str()))
                .count() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            let norm = K1 * (1.0 - B + B * lengths[index] / average);
            score += idf * tf * (K1 + 1.0) / (tf + norm);
            matched.push(format!(
                "\"{word}\" ({})",
                docs[index].fields_with(term).join(", ")
            ));
        }
        if score > 0.0 {
            ranked.push(Ranked {
                index,
                score,
                why: format!("matches {}", matched.join(", ")),
            });
        }
    }
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
    ranked
}

/// The words of `text`, lowercased, split at anything that is not a letter or a digit (so
/// `rag_chat` and `RAG-chat` are two words each).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The terms of `text`.
fn terms(text: &str) -> Vec<String> {
    words(text).filter_map(|w| term(&w)).collect()
}

/// A word's rough stem, or `None` for a stopword or a single character.
fn term(word: &str) -> Option<String> {
    if word.chars().count() < 2 || STOPWORDS.contains(&word) {
        return None;
    }
    let mut stem = word.to_string();
    for suffix in ["ing", "ion", "al", "ed", "es", "s", "e"] {
        if stem.ends_with(suffix) && stem.len() >= suffix.len() + 3 && !stem.ends_with("ss") {
            stem.truncate(stem.len() - suffix.len());
            break;
        }
    }
    Some(stem)
}

/// `workflow_plan`.
pub(super) fn plan(server: &McpServer, args: &Map<String, Value>) -> CallToolResult {
    let goal = string(args, "goal").unwrap_or_default();
    let runnable: Vec<_> = listed(server)
        .into_iter()
        .filter_map(|w| Some((w.tool_name()?, w.plan.clone()?, w)))
        .collect();
    let docs: Vec<Doc> = runnable
        .iter()
        .map(|(_, plan, _)| {
            let workflow = &plan.workflow;
            let inputs: Vec<String> = workflow
                .inputs
                .iter()
                .map(|(name, decl)| format!("{name} {}", decl.description.as_deref().unwrap_or("")))
                .collect();
            Doc::new(&[
                ("name", &workflow.name),
                ("description", workflow.description.as_deref().unwrap_or("")),
                ("inputs", &inputs.join(" ")),
            ])
        })
        .collect();
    let workflows: Vec<Value> = rank(goal, &docs)
        .into_iter()
        .take(TOP)
        .map(|r| {
            let (tool, plan, w) = &runnable[r.index];
            json!({
                "name": tool,
                "workflow_id": w.summary.id,
                "title": plan.workflow.name,
                "score": (r.score * 1000.0).round() / 1000.0,
                "why": r.why,
                "inputs": inputs(&schema::workflow_input(&plan.workflow)),
            })
        })
        .collect();
    let mut body = json!({
        "goal": goal,
        "workflows": workflows,
        "method": METHOD,
        "considered": runnable.len(),
    });
    if workflows.is_empty() {
        body["note"] = json!(
            "no workflow shares a word with the goal; workflow_list lists them all, or write one (workflow_validate, workflow_save)"
        );
    }
    CallToolResult::structured(body)
}

/// `{name: {type, required, description}}` from a workflow tool's input schema.
fn inputs(schema: &Value) -> Value {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    if let Some(properties) = schema["properties"].as_object() {
        for (name, property) in properties {
            let mut input = json!({
                "type": property["type"],
                "required": required.contains(&name.as_str()),
            });
            if let Some(d) = property.get("description") {
                input["description"] = d.clone();
            }
            out.insert(name.clone(), input);
        }
    }
    json!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_meet_at_their_stem() {
        assert_eq!(term("approval"), term("approve"));
        assert_eq!(term("approved"), term("approve"));
        assert_eq!(term("documents"), term("document"));
        assert_eq!(term("the"), None);
        assert_eq!(terms("rag_chat RAG-chat"), ["rag", "chat", "rag", "chat"]);
    }

    #[test]
    fn the_workflow_that_shares_the_rarest_words_ranks_first() {
        let docs = [
            Doc::new(&[
                ("name", "RAG Chat"),
                ("description", "Answer a question from the documents"),
                ("inputs", "query The question"),
            ]),
            Doc::new(&[
                ("name", "Ingest With Approval"),
                ("description", "Ask a person before storing a document"),
                ("inputs", "text Text of the document"),
            ]),
            Doc::new(&[("name", "Costs"), ("description", "What embedding costs")]),
        ];
        let ranked = rank("store a document once a person approves it", &docs);
        assert_eq!(ranked[0].index, 1, "{ranked:?}");
        assert!(
            ranked[0].why.contains("\"approves\" (name)"),
            "{}",
            ranked[0].why
        );
        assert!(ranked.iter().all(|r| r.index != 2), "{ranked:?}");
        assert!(rank("zebra", &docs).is_empty());
    }
}
