//! What a line typed into `vai chat` means: a question, or a slash command. Piped lines are
//! read the same way, so a script can ask, then `/export` or `/export-workflow`.

use std::path::PathBuf;

/// A slash command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Command {
    Help,
    /// The sources of the last answer.
    Sources,
    /// The documents the last answer was given, with their text.
    Context,
    /// The session's id and how to resume it.
    Session,
    /// The kept sessions.
    History,
    /// Start a new session.
    Clear,
    /// Switch to another model of the provider; `None` names the current one.
    Model(Option<String>),
    /// Write the session to a Markdown or JSON file.
    Export(Option<PathBuf>),
    /// The tools agent mode may call, and the tool calls of the last answer.
    Tools,
    /// Let agent mode call tools that change data (`on`), or stop it (`off`); `None` says
    /// which it is.
    AllowWrites(Option<bool>),
    /// Write the last answer's tool calls as a workflow.
    ExportWorkflow(Option<PathBuf>),
    Quit,
}

/// A line, understood.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Entry<'a> {
    Question(&'a str),
    Command(Command),
    /// A slash command that does not exist, or is missing its argument: what to say.
    Invalid(String),
}

/// The commands as `/help` lists them.
pub(super) const HELP: &str = "\
/help                   this list
/sources                the sources of the last answer, with their relevance
/context                the documents the last answer was given, with their text
/session                this session's id, to resume it with `vai chat --session ID`
/history                the kept sessions: id, title, turns, last used
/clear                  start a new session (the current one stays in the history)
/model [NAME]           answer with another model of the provider (no name: the current one)
/export [FILE]          write this session to FILE: Markdown, or JSON when it ends in .json
/tools                  the tools agent mode may call, and the last answer's tool calls
/allow-writes [on|off]  let agent mode change the knowledge base (vai_ingest) in this session
/export-workflow [FILE] write the last answer's tool calls as a .vai-workflow.json
/quit                   leave (also /exit, /q, Ctrl-D; Ctrl-C stops an answer)
Start a question with // to ask one that begins with /.";

/// What `line` (trimmed, not empty) asks for.
pub(super) fn parse(line: &str) -> Entry<'_> {
    if line.starts_with("//") {
        return Entry::Question(&line[1..]);
    }
    let Some(command) = line.strip_prefix('/') else {
        return Entry::Question(line);
    };
    let (name, rest) = command
        .split_once(char::is_whitespace)
        .map_or((command, ""), |(n, r)| (n, r.trim()));
    let argument = (!rest.is_empty()).then(|| rest.to_string());
    let file = || argument.clone().map(PathBuf::from);
    let command = match name.to_ascii_lowercase().as_str() {
        "help" | "?" => Command::Help,
        "sources" => Command::Sources,
        "context" => Command::Context,
        "session" => Command::Session,
        "history" => Command::History,
        "clear" => Command::Clear,
        "model" => Command::Model(argument.clone()),
        "export" => Command::Export(file()),
        "tools" => Command::Tools,
        "allow-writes" => match argument.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None => Command::AllowWrites(None),
            Some("on") => Command::AllowWrites(Some(true)),
            Some("off") => Command::AllowWrites(Some(false)),
            Some(other) => {
                return Entry::Invalid(format!("/allow-writes takes on or off, not \"{other}\""));
            }
        },
        "export-workflow" => Command::ExportWorkflow(file()),
        "quit" | "exit" | "q" => Command::Quit,
        _ => {
            return Entry::Invalid(format!(
                "unknown command /{name}: /help lists the commands (start a question with // to \
                 ask one that begins with /)"
            ));
        }
    };
    let takes_argument = matches!(
        command,
        Command::Model(_)
            | Command::Export(_)
            | Command::ExportWorkflow(_)
            | Command::AllowWrites(_)
    );
    if argument.is_some() && !takes_argument {
        return Entry::Invalid(format!("/{name} takes no argument"));
    }
    Entry::Command(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_questions_unless_they_name_a_command() {
        assert_eq!(
            parse("how does auth work?"),
            Entry::Question("how does auth work?")
        );
        assert_eq!(parse("//etc/hosts?"), Entry::Question("/etc/hosts?"));
        assert_eq!(parse("/help"), Entry::Command(Command::Help));
        assert_eq!(parse("/Q"), Entry::Command(Command::Quit));
        assert_eq!(parse("/exit"), Entry::Command(Command::Quit));
        assert_eq!(parse("/model"), Entry::Command(Command::Model(None)));
        assert_eq!(
            parse("/model  gpt-4o-mini "),
            Entry::Command(Command::Model(Some("gpt-4o-mini".into())))
        );
        assert_eq!(
            parse("/export notes/chat.json"),
            Entry::Command(Command::Export(Some("notes/chat.json".into())))
        );
        assert_eq!(
            parse("/export-workflow"),
            Entry::Command(Command::ExportWorkflow(None))
        );
    }

    #[test]
    fn unknown_commands_and_stray_arguments_are_explained() {
        let Entry::Invalid(message) = parse("/frobnicate now") else {
            panic!("not invalid");
        };
        assert!(
            message.starts_with("unknown command /frobnicate:"),
            "{message}"
        );
        assert_eq!(
            parse("/tools all"),
            Entry::Invalid("/tools takes no argument".into())
        );
        assert_eq!(
            parse("/allow-writes ON"),
            Entry::Command(Command::AllowWrites(Some(true)))
        );
        assert_eq!(
            parse("/allow-writes"),
            Entry::Command(Command::AllowWrites(None))
        );
        assert_eq!(
            parse("/allow-writes maybe"),
            Entry::Invalid("/allow-writes takes on or off, not \"maybe\"".into())
        );
    }
}
