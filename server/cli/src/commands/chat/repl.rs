//! The read–answer loop: questions go to the chat engine, slash commands are answered here, and
//! Ctrl-C stops the answer being written without leaving. Piped lines are read the same way,
//! one question (or command) a line.

use super::export::{self, Format};
use super::input::{Interrupts, Line, Lines};
use super::lists;
use super::render::{Look, TurnView, one_line};
use super::slash::{self, Command, Entry};
use crate::exit::{EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK};
use std::io::{self, Write};
use std::path::PathBuf;
use tokio_util::sync::CancellationToken;
use vai_chat::{ChatEngine, ChatOptions, MAX_QUESTION_BYTES, history};
use vai_contract::{ChatTurn, TurnStatus};
use vai_providers::local::llm::LocalLlm;
use vai_workflow::value::truncate_chars;

/// The conversation being had.
#[derive(Debug)]
pub(super) struct Session {
    pub(super) id: String,
    /// Turns recorded in it so far.
    pub(super) turns: usize,
    /// The latest of them, for `/sources`, `/tools`, `/export-workflow`.
    pub(super) last: Option<ChatTurn>,
}

impl Session {
    pub(super) fn new() -> Session {
        Session {
            id: history::new_id(),
            turns: 0,
            last: None,
        }
    }

    /// The id's first eight characters, for file names.
    fn short_id(&self) -> String {
        self.id.chars().take(8).collect()
    }
}

/// How one line went.
enum Step {
    Done,
    Failed,
    Leave,
    Interrupted,
}

pub(super) struct Repl {
    pub(super) engine: ChatEngine,
    pub(super) options: ChatOptions,
    pub(super) session: Session,
    pub(super) look: Look,
    /// Standard input is a terminal: prompt for each line; a failed turn does not change the
    /// exit code.
    pub(super) interactive: bool,
}

impl Repl {
    /// Read and answer until the input ends, `/quit` or Ctrl-C at the prompt; the exit code.
    pub(super) async fn run(mut self) -> u8 {
        let mut interrupts = Interrupts::catch();
        let mut lines = Lines::stdin();
        let mut failed = false;
        loop {
            if self.interactive {
                self.prompt();
            }
            let line = tokio::select! {
                line = lines.next() => line,
                () = interrupts.next() => {
                    eprintln!();
                    return EXIT_INTERRUPTED;
                }
            };
            let line = match line {
                None => break,
                Some(Ok(line)) => line,
                Some(Err(e)) => {
                    self.error(&format!("cannot read the input: {e}"));
                    failed = true;
                    break;
                }
            };
            match self.line(line, &mut interrupts).await {
                Step::Done => {}
                Step::Failed => failed = true,
                Step::Leave => break,
                Step::Interrupted => return EXIT_INTERRUPTED,
            }
        }
        if self.interactive {
            eprintln!();
        }
        if failed && !self.interactive {
            EXIT_FAILED
        } else {
            EXIT_OK
        }
    }

    fn prompt(&self) {
        let _ = io::stdout().flush();
        let mut err = io::stderr();
        let _ = write!(err, "{} ", self.look.paint("1;36", ">"));
        let _ = err.flush();
    }

    async fn line(&mut self, line: Line, interrupts: &mut Interrupts) -> Step {
        if line.cut {
            self.error(&format!(
                "the question is {} KB; a question may be at most {} KB",
                line.bytes.div_ceil(1024),
                MAX_QUESTION_BYTES / 1024
            ));
            return Step::Failed;
        }
        let text = line.text.trim();
        if text.is_empty() {
            return Step::Done;
        }
        match slash::parse(text) {
            Entry::Question(question) => self.ask(question, interrupts).await,
            Entry::Command(command) => self.command(command).await,
            Entry::Invalid(message) => {
                self.error(&message);
                Step::Failed
            }
        }
    }

    async fn ask(&mut self, question: &str, interrupts: &mut Interrupts) -> Step {
        if !self.interactive && !self.look.quiet && !self.look.json {
            let shown = truncate_chars(&one_line(question), 200);
            eprintln!("{} {shown}", self.look.paint("1;36", ">"));
        }
        let cancel = CancellationToken::new();
        let mut interrupted = false;
        let result = {
            let mut view = TurnView::new(io::stdout(), io::stderr(), self.look, &self.session.id);
            let mut sink = |event| view.event(event);
            let asked = self.engine.ask(
                &self.session.id,
                question,
                &self.options,
                &mut sink,
                &cancel,
            );
            tokio::pin!(asked);
            loop {
                tokio::select! {
                    result = &mut asked => break result,
                    () = interrupts.next(), if !interrupted => {
                        interrupted = true;
                        cancel.cancel();
                    }
                }
            }
        };
        let step = match result {
            Ok(turn) => {
                self.session.turns += 1;
                let failed = turn.status == TurnStatus::Failed;
                self.session.last = Some(turn);
                if failed { Step::Failed } else { Step::Done }
            }
            Err(e) => {
                self.error(&e.to_string());
                Step::Failed
            }
        };
        // Piped: Ctrl-C stops the whole script, not just this answer.
        if interrupted && !self.interactive {
            Step::Interrupted
        } else {
            step
        }
    }

    async fn command(&mut self, command: Command) -> Step {
        let last = self.session.last.as_ref();
        match command {
            Command::Help => self.say(slash::HELP),
            Command::Sources => match last {
                Some(turn) => self.say(&lists::sources(&turn.sources)),
                None => self.say(NO_ANSWER_YET),
            },
            Command::Context => match last {
                Some(turn) => self.say(&lists::context(&turn.sources)),
                None => self.say(NO_ANSWER_YET),
            },
            Command::Tools => {
                let offered = vai_chat::tools::offered(self.engine.registry());
                let mut text = lists::offered(&offered, self.options.allow_writes);
                text.push_str("\n\n");
                text.push_str(&match last {
                    Some(turn) => lists::tool_calls(&turn.tool_calls),
                    None => NO_ANSWER_YET.to_string(),
                });
                self.say(&text)
            }
            Command::AllowWrites(None) => self.say(if self.options.allow_writes {
                "Agent mode may change the knowledge base (vai_ingest) in this session; /allow-writes off stops it."
            } else {
                "Agent mode may not change the knowledge base in this session; /allow-writes on lets it."
            }),
            Command::AllowWrites(Some(allow)) => {
                self.options.allow_writes = allow;
                self.say(if allow {
                    "From now on agent mode may change the knowledge base (vai_ingest) in this session."
                } else {
                    "Agent mode may no longer change the knowledge base in this session."
                })
            }
            Command::Session => self.say(&format!(
                "Session {} ({} turn{}, history: {}).\nResume it with: vai chat --session {}",
                self.session.id,
                self.session.turns,
                if self.session.turns == 1 { "" } else { "s" },
                self.engine.history().kind(),
                self.session.id
            )),
            Command::History => match self.engine.history().list().await {
                Ok(sessions) => {
                    let now = history::now_ms();
                    self.say(&lists::history(&sessions, &self.session.id, now))
                }
                Err(e) => {
                    self.error(&e.to_string());
                    Step::Failed
                }
            },
            Command::Clear => {
                let previous = std::mem::replace(&mut self.session, Session::new());
                let kept = match (previous.turns, self.engine.history().kind()) {
                    (0, _) => "it had no turns".to_string(),
                    (_, "memory") => "it is kept until you leave".to_string(),
                    _ => format!("resume it with `vai chat --session {}`", previous.id),
                };
                self.say(&format!(
                    "Started a new session, {} (the previous one, {}: {kept}).",
                    self.session.id, previous.id
                ))
            }
            Command::Model(None) => self.say(&format!("Model: {}", self.model())),
            Command::Model(Some(name)) => self.switch_model(name),
            Command::Export(file) => self.export(file).await,
            Command::ExportWorkflow(file) => self.export_workflow(file),
            Command::Quit => Step::Leave,
        }
    }

    /// `provider · model` of the answers to come.
    fn model(&self) -> String {
        let Some(llm) = self.engine.llm() else {
            return "none".to_string();
        };
        let model = self
            .options
            .model
            .clone()
            .unwrap_or_else(|| llm.default_model().to_string());
        format!("{} · {model}", llm.name())
    }

    fn switch_model(&mut self, name: String) -> Step {
        if self
            .engine
            .llm()
            .is_some_and(|llm| llm.name() == LocalLlm::NAME)
        {
            self.error(&format!(
                "the local LLM has one model, {}; configure a provider (VAI_LLM_PROVIDER, or \
                 --llm-provider) to choose among its models",
                LocalLlm::MODEL
            ));
            return Step::Failed;
        }
        self.options.model = Some(name);
        self.say(&format!("Answering with {} from now on.", self.model()))
    }

    /// `/export [FILE]`: the session as Markdown, or JSON for a `.json` file.
    async fn export(&self, file: Option<PathBuf>) -> Step {
        let session = match self.engine.history().load(&self.session.id).await {
            Ok(Some(session)) => session,
            Ok(None) => return self.say("Nothing to export yet: ask a question first."),
            Err(e) => {
                self.error(&e.to_string());
                return Step::Failed;
            }
        };
        let format = file.as_deref().map_or(Format::Markdown, Format::of);
        let stem = format!("chat-{}", self.session.short_id());
        let text = format.render(&session);
        match export::write_new(
            file.as_deref(),
            |n| export::numbered(&stem, "md", n),
            text.as_bytes(),
        ) {
            Ok(path) => self.say(&format!(
                "Wrote {} ({} turn{}, {}).",
                path.display(),
                session.turns.len(),
                if session.turns.len() == 1 { "" } else { "s" },
                match format {
                    Format::Markdown => "Markdown",
                    Format::Json => "JSON",
                }
            )),
            Err(message) => {
                self.error(&message);
                Step::Failed
            }
        }
    }

    /// `/export-workflow [FILE]`: the last answer's tool calls as a workflow, and how to run it.
    fn export_workflow(&self, file: Option<PathBuf>) -> Step {
        let Some(turn) = &self.session.last else {
            self.error("no answer yet: ask a question in agent mode (--mode agent) first");
            return Step::Failed;
        };
        let workflow = match vai_chat::export_workflow(turn) {
            Ok(workflow) => workflow,
            Err(e) => {
                self.error(&e.to_string());
                return Step::Failed;
            }
        };
        let mut text = serde_json::to_string_pretty(&workflow).unwrap_or_default();
        text.push('\n');
        let stem = format!("chat-{}-{}", self.session.short_id(), self.session.turns);
        match export::write_new(
            file.as_deref(),
            |n| export::numbered(&stem, "vai-workflow.json", n),
            text.as_bytes(),
        ) {
            Ok(path) => {
                let steps = workflow["steps"].as_array().map_or(0, Vec::len);
                self.say(&format!(
                    "Wrote {} ({steps} step{} from the last answer's tool calls). Run it with:\n  {}",
                    path.display(),
                    if steps == 1 { "" } else { "s" },
                    export::run_command(&path, &turn.question)
                ))
            }
            Err(message) => {
                self.error(&message);
                Step::Failed
            }
        }
    }

    /// What a command answers: on stdout, or stderr with `--json` (stdout holds the turns).
    fn say(&self, text: &str) -> Step {
        if self.look.json {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
        Step::Done
    }

    fn error(&self, message: &str) {
        let _ = io::stdout().flush();
        eprintln!("{}", self.look.error(message));
    }
}

const NO_ANSWER_YET: &str = "No answer yet: ask a question first.";
