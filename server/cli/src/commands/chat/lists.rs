//! What the slash commands print: plain text built from the engine's records, so each is
//! tested without a terminal.

use super::render::{one_line, relevance};
use vai_contract::{ChatSessionSummary, ChatSource, ChatToolCall};
use vai_workflow::value::truncate_chars;

/// Characters of each document `/context` prints.
const CONTEXT_CHARS: usize = 600;

/// `/sources`: every source of the last answer.
pub(super) fn sources(sources: &[ChatSource]) -> String {
    if sources.is_empty() {
        return "The last answer has no sources.".to_string();
    }
    sources
        .iter()
        .map(|s| {
            let from = s
                .collection
                .as_ref()
                .map(|c| format!(" — {c}"))
                .unwrap_or_default();
            format!("[{}] {}{}{from}", s.index, one_line(&s.title), relevance(s))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `/context`: the documents the last answer was given, each with the start of its text.
pub(super) fn context(sources: &[ChatSource]) -> String {
    if sources.is_empty() {
        return "The last answer was given no documents.".to_string();
    }
    sources
        .iter()
        .map(|s| {
            let text = truncate_chars(&one_line(&s.text), CONTEXT_CHARS);
            format!(
                "[{}] {}{}\n    {text}",
                s.index,
                one_line(&s.title),
                relevance(s)
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `/tools`, first part: the tools agent mode may call now, and those that change data, off
/// unless the session allows writes.
pub(super) fn offered(tools: &[vai_chat::tools::Offered], allow_writes: bool) -> String {
    let names = |writes: bool| {
        tools
            .iter()
            .filter(|t| t.writes == writes)
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (reads, writes) = (names(false), names(true));
    let mut out = format!("Agent mode may call: {reads}");
    if !writes.is_empty() {
        if allow_writes {
            out.push_str(&format!(
                "\nand, as this session allows changes (/allow-writes off stops it): {writes}"
            ));
        } else {
            out.push_str(&format!(
                "\nOff, as they change the knowledge base: {writes} (/allow-writes on, or vai chat --allow-writes)"
            ));
        }
    }
    out
}

/// `/tools`, second part: the tool calls of the last answer, with their inputs.
pub(super) fn tool_calls(calls: &[ChatToolCall]) -> String {
    if calls.is_empty() {
        return "The last answer called no tools (in agent mode, --mode agent, the model calls \
                vai's tools)."
            .to_string();
    }
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mark = if c.ok { "✔" } else { "✗" };
            format!(
                "{}. {} {}  [{}ms]\n   {} {}\n   {}",
                i + 1,
                c.name,
                truncate_chars(&c.arguments.to_string(), 300),
                c.duration_ms,
                mark,
                one_line(&c.summary),
                c.label
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `/history`: the kept sessions, most recent first; `current` is marked.
pub(super) fn history(sessions: &[ChatSessionSummary], current: &str, now_ms: u64) -> String {
    if sessions.is_empty() {
        return "No sessions yet.".to_string();
    }
    sessions
        .iter()
        .map(|s| {
            let mark = if s.id == current { "*" } else { " " };
            let turns = match s.turn_count {
                1 => "1 turn".to_string(),
                n => format!("{n} turns"),
            };
            format!(
                "{mark} {}  {turns:>9}  {:>12}  {}",
                s.id,
                ago(now_ms, s.updated_at),
                truncate_chars(&s.title, 60)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How long before `now_ms` `then_ms` was: `just now`, `5 min ago`, `3 h ago`, `2 days ago`.
pub(super) fn ago(now_ms: u64, then_ms: u64) -> String {
    let minutes = now_ms.saturating_sub(then_ms) / 60_000;
    match minutes {
        0 => "just now".to_string(),
        1..=59 => format!("{minutes} min ago"),
        60..=1439 => format!("{} h ago", minutes / 60),
        _ => match minutes / 1440 {
            1 => "1 day ago".to_string(),
            days => format!("{days} days ago"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn source(index: u32, title: &str, score: Option<f64>) -> ChatSource {
        ChatSource {
            index,
            title: title.into(),
            text: "Tokens expire after\n15 minutes.".into(),
            score,
            collection: Some("api_docs".into()),
            passages: Vec::new(),
        }
    }

    #[test]
    fn sources_and_context_name_titles_relevance_and_text() {
        let list = [
            source(1, "auth.md", Some(0.9412)),
            source(2, "limits.md", None),
        ];
        assert_eq!(
            sources(&list),
            "[1] auth.md (relevance: 0.94) — api_docs\n[2] limits.md — api_docs"
        );
        assert_eq!(
            context(&list[..1]),
            "[1] auth.md (relevance: 0.94)\n    Tokens expire after 15 minutes."
        );
        assert_eq!(sources(&[]), "The last answer has no sources.");
    }

    #[test]
    fn tool_calls_show_inputs_results_and_durations() {
        let call = ChatToolCall {
            id: "c1".into(),
            name: "vai_query".into(),
            arguments: json!({"query": "auth"}),
            label: "Searching api_docs for \"auth\"".into(),
            ok: true,
            summary: "2 results, top score 0.91".into(),
            output: None,
            duration_ms: 42,
        };
        assert_eq!(
            tool_calls(&[call]),
            "1. vai_query {\"query\":\"auth\"}  [42ms]\n   ✔ 2 results, top score 0.91\n   \
             Searching api_docs for \"auth\""
        );
    }

    #[test]
    fn history_marks_the_current_session_and_says_when() {
        let now = 10 * 86_400_000;
        let session = |id: &str, turns, updated| ChatSessionSummary {
            id: id.into(),
            title: format!("about {id}"),
            created_at: 0,
            updated_at: updated,
            turn_count: turns,
        };
        let text = history(
            &[
                session("aa", 1, now - 30_000),
                session("bb", 3, now - 2 * 86_400_000),
            ],
            "bb",
            now,
        );
        assert_eq!(
            text,
            "  aa     1 turn      just now  about aa\n* bb    3 turns    2 days ago  about bb"
        );
        assert_eq!(ago(now, now - 5 * 60_000), "5 min ago");
        assert_eq!(ago(now, now - 3 * 3_600_000), "3 h ago");
    }
}
