//! The documents an answer may cite: taken from `query`/`search` results, numbered from 1 in
//! the order the model first saw them, each kept once.

use serde_json::Value;
use vai_contract::ChatSource;

/// A source's text is cut to this many bytes (the model sees less; see `prompt`).
pub(crate) const MAX_SOURCE_TEXT: usize = 8 * 1024;

/// The sources of one turn.
#[derive(Debug, Default)]
pub(crate) struct Sources {
    pub(crate) list: Vec<ChatSource>,
}

impl Sources {
    /// Add the results of a search of `collection`; returns the citation number of each
    /// result, in order (an already known document keeps its number).
    pub(crate) fn add_results(&mut self, results: &[Value], collection: Option<&str>) -> Vec<u32> {
        results
            .iter()
            .enumerate()
            .map(|(i, result)| {
                let title = title_of(result, self.list.len() + i + 1);
                let text = cut(text_of(result), MAX_SOURCE_TEXT);
                if let Some(known) = self
                    .list
                    .iter()
                    .find(|s| s.title == title && s.text == text)
                {
                    return known.index;
                }
                let index = self.list.len() as u32 + 1;
                self.list.push(ChatSource {
                    index,
                    title,
                    text,
                    score: result
                        .get("score")
                        .or_else(|| result.get("relevance_score"))
                        .and_then(Value::as_f64),
                    collection: collection.map(str::to_string),
                    passages: Vec::new(),
                });
                index
            })
            .collect()
    }
}

/// What a result is called: its `source`, `title`, `metadata.source`/`title`/`filename`, `_id`.
fn title_of(result: &Value, position: usize) -> String {
    let text = |v: Option<&Value>| {
        v.and_then(|v| match v {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::Object(o) => o.get("$oid").and_then(Value::as_str).map(str::to_string),
            _ => None,
        })
    };
    let metadata = result.get("metadata");
    text(result.get("source"))
        .or_else(|| text(result.get("title")))
        .or_else(|| text(metadata.and_then(|m| m.get("source"))))
        .or_else(|| text(metadata.and_then(|m| m.get("title"))))
        .or_else(|| text(metadata.and_then(|m| m.get("filename"))))
        .or_else(|| text(result.get("_id")))
        .unwrap_or_else(|| format!("document {position}"))
}

/// A result's text: `text`, `content`, or a `document` string.
pub(crate) fn text_of(result: &Value) -> &str {
    ["text", "content", "document"]
        .iter()
        .find_map(|k| result.get(*k).and_then(Value::as_str))
        .unwrap_or("")
}

/// `text` cut to at most `max` bytes at a character boundary, with "…" when cut.
pub(crate) use vai_providers::llm::tool_loop::cut;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_are_numbered_once_with_their_titles() {
        let mut sources = Sources::default();
        let first = sources.add_results(
            &[
                json!({"text": "a", "source": "a.md", "score": 0.9}),
                json!({"content": "b", "metadata": {"title": "B"}}),
            ],
            Some("docs"),
        );
        let again = sources.add_results(
            &[
                json!({"text": "c", "_id": {"$oid": "65f"}}),
                json!({"text": "a", "source": "a.md"}),
            ],
            None,
        );
        assert_eq!(first, [1, 2]);
        assert_eq!(again, [3, 1]);
        let titles: Vec<_> = sources.list.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["a.md", "B", "65f"]);
        assert_eq!(sources.list[0].score, Some(0.9));
        assert_eq!(sources.list[0].collection.as_deref(), Some("docs"));
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary() {
        let text = "é".repeat(10);
        let cut = cut(&text, 7);
        assert!(cut.len() <= 7, "{cut}");
        assert!(cut.ends_with('…'));
    }
}
