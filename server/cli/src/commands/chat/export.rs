//! `/export` and `/export-workflow` on disk: the session as Markdown or JSON, and the files they
//! write, which are always new — a file already there is never replaced.

use super::render::{one_line, relevance};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use vai_contract::{ChatSession, TurnStatus};
use vai_workflow::value::truncate_chars;

/// Default names tried (`-2`, `-3`, …) before giving up.
const NAMES_TRIED: usize = 100;

/// A longer question is cut in its heading and quoted whole below it.
const HEADING_CHARS: usize = 100;

/// How `/export` writes a session: JSON when the file ends in `.json`, else Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Markdown,
    Json,
}

impl Format {
    pub(super) fn of(path: &Path) -> Format {
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        if json { Format::Json } else { Format::Markdown }
    }

    /// The session in this format.
    pub(super) fn render(self, session: &ChatSession) -> String {
        match self {
            Format::Json => {
                let mut text = serde_json::to_string_pretty(session).unwrap_or_default();
                text.push('\n');
                text
            }
            Format::Markdown => markdown(session),
        }
    }
}

/// The session as a Markdown transcript: each question, its answer, sources and tool calls.
pub(super) fn markdown(session: &ChatSession) -> String {
    let mut blocks = vec![
        format!("# Chat: {}", session.title),
        format!(
            "Session `{}`, {} turn{}, exported from `vai chat`.",
            session.id,
            session.turns.len(),
            if session.turns.len() == 1 { "" } else { "s" }
        ),
    ];
    for (n, turn) in session.turns.iter().enumerate() {
        let heading = truncate_chars(&one_line(&turn.question), HEADING_CHARS);
        blocks.push(format!("## {}. {heading}", n + 1));
        if heading != turn.question {
            blocks.push(format!("> {}", turn.question.replace('\n', "\n> ")));
        }
        if !turn.tool_calls.is_empty() {
            let calls: Vec<String> = turn
                .tool_calls
                .iter()
                .map(|call| {
                    let mark = if call.ok { "✔" } else { "✗" };
                    format!("- {} — {mark} {}", call.label, one_line(&call.summary))
                })
                .collect();
            blocks.push(format!("Tool calls:\n\n{}", calls.join("\n")));
        }
        if !turn.answer.is_empty() {
            blocks.push(turn.answer.clone());
        }
        if !turn.sources.is_empty() {
            let sources: Vec<String> = turn
                .sources
                .iter()
                .map(|s| format!("{}. {}{}", s.index, one_line(&s.title), relevance(s)))
                .collect();
            blocks.push(format!("Sources:\n\n{}", sources.join("\n")));
        }
        match turn.status {
            TurnStatus::Done => {}
            TurnStatus::Failed => blocks.push(format!(
                "*This turn failed: {}*",
                turn.error.as_deref().unwrap_or("no reason recorded")
            )),
            TurnStatus::Cancelled => blocks.push("*This turn was cancelled.*".to_string()),
        }
        blocks.push(format!("<sub>{} · {}</sub>", turn.provider, turn.model));
    }
    let mut text = blocks.join("\n\n");
    text.push('\n');
    text
}

/// Write `bytes` to `given`, or else to the first free name `default(n)` gives (n = 1, 2, …);
/// returns the path written. Nothing is ever replaced.
pub(super) fn write_new(
    given: Option<&Path>,
    default: impl Fn(usize) -> PathBuf,
    bytes: &[u8],
) -> Result<PathBuf, String> {
    if let Some(path) = given {
        return match create(path, bytes) {
            Ok(()) => Ok(path.to_path_buf()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(format!(
                "{} already exists and is never replaced: name another file",
                path.display()
            )),
            Err(e) => Err(format!("cannot write {}: {e}", path.display())),
        };
    }
    for n in 1..=NAMES_TRIED {
        let path = default(n);
        match create(&path, bytes) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot write {}: {e}", path.display())),
        }
    }
    Err(format!(
        "{} and the next {} names are taken: name a file",
        default(1).display(),
        NAMES_TRIED - 1
    ))
}

/// Create `path` with `bytes`, failing with `AlreadyExists` rather than replacing a file.
fn create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// `stem.ext`, then `stem-2.ext`, `stem-3.ext`, … in the current directory.
pub(super) fn numbered(stem: &str, ext: &str, n: usize) -> PathBuf {
    if n == 1 {
        PathBuf::from(format!("{stem}.{ext}"))
    } else {
        PathBuf::from(format!("{stem}-{n}.{ext}"))
    }
}

/// The command that runs an exported workflow with the question it was made from.
pub(super) fn run_command(path: &Path, question: &str) -> String {
    let shown = path.display().to_string();
    let shown = if path.is_relative() && !shown.starts_with("./") && !shown.starts_with("../") {
        format!("./{shown}")
    } else {
        shown
    };
    format!(
        "vai workflow run {} --input question={}",
        shell_word(&shown),
        double_quoted(&one_line(question))
    )
}

/// `text` as one shell word: as it is when that is safe, else double-quoted.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/+:@%".contains(c));
    if plain {
        text.to_string()
    } else {
        double_quoted(text)
    }
}

/// `text` in double quotes, with what the shell would expand there escaped.
fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vai_contract::{ChatMode, ChatSource, ChatTimings, ChatTurn};

    fn turn(question: &str, status: TurnStatus) -> ChatTurn {
        ChatTurn {
            id: "t1".into(),
            question: question.into(),
            answer: "Tokens last 15 minutes [1].".into(),
            status,
            error: (status == TurnStatus::Failed).then(|| "openai: timed out".into()),
            mode: ChatMode::Pipeline,
            notice: None,
            sources: vec![ChatSource {
                index: 1,
                title: "auth.md".into(),
                text: "…".into(),
                score: Some(0.9),
                collection: None,
                passages: Vec::new(),
            }],
            method: None,
            tool_calls: Vec::new(),
            provider: "openai".into(),
            model: "gpt-4o".into(),
            usage: Default::default(),
            timings: ChatTimings::default(),
            started_at: 0,
        }
    }

    #[test]
    fn a_session_exports_as_markdown_or_json_by_extension() {
        let session = ChatSession {
            id: "abc".into(),
            title: "How long do tokens last?".into(),
            created_at: 0,
            updated_at: 0,
            turns: vec![
                turn("How long do tokens last?", TurnStatus::Done),
                turn("And refresh tokens?", TurnStatus::Failed),
            ],
        };
        assert_eq!(Format::of(Path::new("a.JSON")), Format::Json);
        assert_eq!(Format::of(Path::new("a.md")), Format::Markdown);
        assert_eq!(Format::of(Path::new("notes")), Format::Markdown);
        let md = Format::Markdown.render(&session);
        assert!(
            md.starts_with("# Chat: How long do tokens last?\n\nSession `abc`, 2 turns"),
            "{md}"
        );
        assert!(
            md.contains("## 1. How long do tokens last?\n\nTokens last 15 minutes [1].\n\nSources:\n\n1. auth.md (relevance: 0.90)\n"),
            "{md}"
        );
        assert!(md.contains("*This turn failed: openai: timed out*"), "{md}");
        let json: ChatSession = serde_json::from_str(&Format::Json.render(&session)).unwrap();
        assert_eq!(json, session);
    }

    #[test]
    fn files_are_created_never_replaced() {
        let dir = std::env::temp_dir().join(format!("vai-chat-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let name = |n| dir.join(numbered("chat-abc", "md", n));
        assert_eq!(
            write_new(None, name, b"one").unwrap(),
            dir.join("chat-abc.md")
        );
        assert_eq!(
            write_new(None, name, b"two").unwrap(),
            dir.join("chat-abc-2.md")
        );
        let taken = dir.join("chat-abc.md");
        let refused = write_new(Some(&taken), name, b"three").unwrap_err();
        assert!(
            refused.contains("already exists and is never replaced"),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&taken).unwrap(), "one");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_run_command_quotes_what_the_shell_would_expand() {
        assert_eq!(
            run_command(
                Path::new("chat-1.vai-workflow.json"),
                "What's \"auth\" for $HOME?"
            ),
            "vai workflow run ./chat-1.vai-workflow.json --input question=\"What's \\\"auth\\\" for \\$HOME?\""
        );
        assert_eq!(
            run_command(Path::new("my flows/x.json"), "q"),
            "vai workflow run \"./my flows/x.json\" --input question=\"q\""
        );
    }
}
