//! What the model is sent, laid out as the Node.js vai lays it out: the system prompt, the
//! conversation so far as a sliding window by token budget, and the question with its context
//! documents.

use crate::sources::cut;
use vai_contract::{ChatSource, ChatTurn, TurnStatus};
use vai_providers::llm::Message;

pub(crate) const PIPELINE_SYSTEM_PROMPT: &str = "\
You are a knowledgeable assistant. Answer the user's questions based on the provided context \
documents. Follow these rules:

1. Base your answers on the provided context. If the context doesn't contain enough \
information to answer, say so clearly.
2. Cite your sources with their numbers in square brackets, like [1] or [2][3].
3. If the user asks about something outside the provided context, acknowledge this and \
provide what help you can.
4. Be concise but thorough. Prefer clarity over verbosity.
5. If multiple context documents conflict, note the discrepancy.";

pub(crate) const AGENT_SYSTEM_PROMPT: &str = "\
You are a knowledgeable assistant with access to the user's knowledge base through a set of \
tools. Use these tools to find information, answer questions, and perform tasks.

GUIDELINES:
1. Use tools when you need information from the knowledge base. Don't guess — search first.
2. You can call multiple tools in sequence to answer complex questions.
3. If a question involves multiple collections, search each one.
4. After retrieving results, synthesize a clear answer. Search results carry a \"cite\" \
number: cite it in square brackets, like [1].
5. If the tools don't return relevant results, say so honestly.
6. For questions about vai itself (costs, models, concepts), use vai_estimate, vai_models, or \
vai_explain instead of searching.
7. Use vai_collections to discover what's available if you're unsure which collection to \
search.";

/// How much of the prompt each part may take, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    /// The context documents of a pipeline answer.
    pub(crate) context: usize,
    /// Earlier turns.
    pub(crate) history: usize,
}

impl Budget {
    /// The budget for a model that handles `context_tokens` (`None`: a large hosted model).
    pub(crate) fn for_model(context_tokens: Option<usize>) -> Self {
        match context_tokens {
            // A small model: most of its window for the documents, a little for the
            // conversation, the rest for the instructions and the question.
            Some(tokens) => Budget {
                context: tokens / 2,
                history: tokens / 5,
            },
            None => Budget {
                context: 6_000,
                history: 4_000,
            },
        }
    }
}

/// A rough token count (about four characters a token), enough to budget a prompt.
pub(crate) fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The question with its context documents, as the last user message , the
/// documents cut to fit `budget` tokens in all.
pub(crate) fn with_context(question: &str, sources: &[ChatSource], budget: usize) -> String {
    if sources.is_empty() {
        return format!(
            "--- Context Documents ---\n\n(no documents matched the question)\n\n\
             --- End Context ---\n\nUser question: {question}"
        );
    }
    // An even share each, in characters (four per token), at least a line's worth.
    let share = (budget * 4 / sources.len()).max(160);
    let mut block = String::from("--- Context Documents ---\n\n");
    for source in sources {
        let relevance = source
            .score
            .map(|s| format!(" | Relevance: {s:.2}"))
            .unwrap_or_default();
        block.push_str(&format!(
            "[{}] Source: {}{relevance}\n{}\n\n",
            source.index,
            source.title,
            cut(source.text.trim(), share)
        ));
    }
    block.push_str(&format!("--- End Context ---\n\nUser question: {question}"));
    block
}

/// The conversation window: the most recent finished turns, oldest first, as user/assistant
/// messages, at most `max_turns` and within `budget` tokens; and the older turns left out.
pub(crate) fn window(turns: &[ChatTurn], max_turns: usize, budget: usize) -> (Vec<Message>, usize) {
    let usable: Vec<&ChatTurn> = turns
        .iter()
        .filter(|t| t.status == TurnStatus::Done && !t.answer.trim().is_empty())
        .collect();
    let mut kept = Vec::new();
    let mut used = 0;
    for turn in usable.iter().rev().take(max_turns) {
        let cost = estimate_tokens(&turn.question) + estimate_tokens(&turn.answer);
        if used + cost > budget {
            break;
        }
        used += cost;
        kept.push(*turn);
    }
    let dropped = usable.len() - kept.len();
    let messages = kept
        .iter()
        .rev()
        .flat_map(|t| {
            [
                Message::user(t.question.clone()),
                Message::assistant(t.answer.clone()),
            ]
        })
        .collect();
    (messages, dropped)
}

/// The request asking a model to summarize `turns` (the ones the window left out).
pub(crate) fn summary_request(turns: &[ChatTurn]) -> String {
    let mut text = String::from(
        "Summarize this conversation in at most five sentences, keeping names, numbers and \
         decisions. Reply with the summary only.\n\n",
    );
    for turn in turns {
        text.push_str(&format!(
            "User: {}\nAssistant: {}\n\n",
            cut(&turn.question, 2_000),
            cut(&turn.answer, 4_000)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(question: &str, answer: &str, status: TurnStatus) -> ChatTurn {
        ChatTurn {
            answer: answer.into(),
            status,
            ..crate::history::tests::turn(question, 0)
        }
    }

    #[test]
    fn the_window_keeps_the_newest_finished_turns_that_fit() {
        let turns = vec![
            turn("first question", &"old ".repeat(400), TurnStatus::Done),
            turn("second", "two", TurnStatus::Done),
            turn("broken", "", TurnStatus::Failed),
            turn("third", "three", TurnStatus::Done),
        ];
        let (messages, dropped) = window(&turns, 20, 50);
        let texts: Vec<_> = messages.iter().map(|m| m.content.as_str()).collect();
        assert_eq!(texts, ["second", "two", "third", "three"]);
        assert_eq!(dropped, 1);
        let (messages, dropped) = window(&turns, 1, 1_000);
        assert_eq!(messages.len(), 2);
        assert_eq!(dropped, 2);
    }

    #[test]
    fn context_documents_are_numbered_and_share_the_budget() {
        let sources = vec![
            ChatSource {
                index: 1,
                title: "auth.md".into(),
                text: "x".repeat(10_000),
                score: Some(0.94),
                collection: None,
                passages: Vec::new(),
            },
            ChatSource {
                index: 2,
                title: "api.md".into(),
                text: "short".into(),
                score: None,
                collection: None,
                passages: Vec::new(),
            },
        ];
        let prompt = with_context("How?", &sources, 500);
        assert!(prompt.starts_with("--- Context Documents ---"));
        assert!(prompt.contains("[1] Source: auth.md | Relevance: 0.94\n"));
        assert!(prompt.contains("[2] Source: api.md\nshort"));
        assert!(prompt.ends_with("User question: How?"));
        assert!(
            estimate_tokens(&prompt) < 600,
            "{}",
            estimate_tokens(&prompt)
        );
    }
}
