//! `vai explain [topic]`: the `explain` tool's texts for a terminal — a topic's explanation, what
//! each kind of step does with it, and further reading; without a topic, the list of topics.

use crate::exit::{EXIT_INVALID, EXIT_OK};
use clap::Args;
use serde_json::json;
use vai_tools::explain::{self, TOPICS, Topic};

/// What to explain, and how to print it.
#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    /// What to explain; several words are read as one phrase.
    topic: Vec<String>,
    /// Print the `explain` tool's output object (without a topic: the list of topics) as JSON.
    #[arg(long)]
    json: bool,
}

/// Narrowest and widest text, whatever `COLUMNS` says: prose wider than this is hard to read.
const MIN_WIDTH: usize = 40;
const MAX_WIDTH: usize = 100;

pub(super) fn run(args: ExplainArgs) -> anyhow::Result<u8> {
    let query = args.topic.join(" ");
    if query.trim().is_empty() {
        if args.json {
            let topics: Vec<_> = TOPICS
                .iter()
                .map(|t| json!({"key": t.key, "title": t.title}))
                .collect();
            println!("{}", serde_json::to_string_pretty(&topics)?);
        } else {
            print!("{}", list());
        }
        return Ok(EXIT_OK);
    }
    let Some(topic) = explain::find(&query) else {
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&explain::lookup(&query))?
            );
        }
        eprintln!(
            "no topic \"{}\"; topics: {}",
            query.trim(),
            explain::keys().join(", ")
        );
        return Ok(EXIT_INVALID);
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&explain::lookup(&query))?
        );
    } else {
        print!("{}", page(topic, width()));
    }
    Ok(EXIT_OK)
}

/// The terminal's width as the shell exports it in `COLUMNS`, else 80, kept readable.
fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(80)
        .clamp(MIN_WIDTH, MAX_WIDTH)
}

/// One line per topic: key and title.
fn list() -> String {
    let w = TOPICS.iter().map(|t| t.key.len()).max().unwrap_or(0);
    let mut out = String::from("Topics (vai explain <topic>):\n");
    for t in TOPICS {
        out.push_str(&format!("  {:<w$}  {}\n", t.key, t.title));
    }
    out
}

/// A topic as a terminal page: title, text, the steps it is about, links.
fn page(topic: &Topic, width: usize) -> String {
    let mut out = format!(
        "{}\n{}\n\n",
        topic.title,
        "=".repeat(topic.title.chars().count())
    );
    for paragraph in topic.text.trim().split("\n\n") {
        out.push_str(&wrap(paragraph, width, ""));
        out.push('\n');
    }
    if !topic.steps.is_empty() {
        out.push_str("In a workflow\n");
        for note in topic.steps {
            out.push_str(&format!("\n  {} step\n", note.tool));
            out.push_str(&wrap(note.text, width, "    "));
        }
        out.push('\n');
    }
    if !topic.links.is_empty() {
        out.push_str("Further reading\n");
        for link in topic.links {
            out.push_str(&format!("  {link}\n"));
        }
    }
    out
}

/// `text` as lines of at most `width` characters (a longer word gets a line of its own), each
/// starting with `indent` and ending with a newline.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let room = width.saturating_sub(indent.chars().count()).max(1);
    let mut out = String::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if len > 0 && len + 1 + n > room {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += n;
    }
    if len > 0 {
        out.push_str(&format!("{indent}{line}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole_within_the_width() {
        let text = "one two three four five six seven eight nine ten";
        assert_eq!(
            wrap(text, 14, ""),
            "one two three\nfour five six\nseven eight\nnine ten\n"
        );
        assert_eq!(
            wrap(text, 16, "  "),
            "  one two three\n  four five six\n  seven eight\n  nine ten\n"
        );
        assert_eq!(
            wrap("a unbreakablelongword b", 5, ""),
            "a\nunbreakablelongword\nb\n"
        );
        assert_eq!(wrap("  ", 10, ""), "");
    }

    #[test]
    fn a_page_has_title_paragraphs_steps_and_links_within_the_width() {
        let topic = explain::find("reranking").unwrap();
        let page = page(topic, 60);
        assert!(
            page.starts_with("Reranking\n=========\n\nReranking is a second"),
            "{page}"
        );
        assert!(
            page.contains("\n  rerank step\n    This step gives"),
            "{page}"
        );
        assert!(
            page.contains("Further reading\n  https://docs.voyageai.com/docs/reranker\n"),
            "{page}"
        );
        assert!(page.lines().all(|l| l.chars().count() <= 60), "{page}");
        // Paragraphs stay apart.
        assert!(page.contains("\n\nThat joint reading"), "{page}");
    }
}
