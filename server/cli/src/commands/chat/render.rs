//! A turn as `vai chat` prints it, from the engine's [`ChatEvent`]s: the answer on stdout as it
//! streams, then its sources; tool calls, notices, the turn's state and errors on stderr. With
//! `--json`, one object per turn on stdout instead of the answer.

use serde_json::{Map, Value};
use std::io::{self, IsTerminal, Write};
use vai_contract::{
    AnswerMethod, ChatEvent, ChatSource, ChatToolCall, ChatTurn, TurnState, TurnStatus,
};
use vai_workflow::value::truncate_chars;

/// Sources listed under an answer; `/sources` lists them all.
const SOURCES_SHOWN: usize = 10;

/// Characters of a tool's input or output printed with `showToolCalls: "verbose"`.
const VERBOSE_CHARS: usize = 2000;

/// `.vai.json` `chat.showToolCalls`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ShowToolCalls {
    Hidden,
    /// A line as each call starts, one as it ends (the default).
    Shown,
    /// Also each call's input and output.
    Verbose,
}

impl ShowToolCalls {
    /// The setting's value: `true` (the default), `false` or `"verbose"`.
    pub(super) fn from_setting(value: Option<&Value>) -> Result<Self, String> {
        match value {
            None | Some(Value::Null) | Some(Value::Bool(true)) => Ok(ShowToolCalls::Shown),
            Some(Value::Bool(false)) => Ok(ShowToolCalls::Hidden),
            Some(Value::String(s)) if s == "verbose" => Ok(ShowToolCalls::Verbose),
            Some(other) => Err(format!(
                "chat.showToolCalls in .vai.json is {other}; it must be true, false or \"verbose\""
            )),
        }
    }
}

/// How the REPL prints.
#[derive(Debug, Clone, Copy)]
pub(super) struct Look {
    /// Colours on stderr.
    pub(super) colour: bool,
    /// stderr is a terminal: the turn's state shows on a line that is rewritten in place.
    pub(super) live: bool,
    pub(super) json: bool,
    pub(super) quiet: bool,
    pub(super) tools: ShowToolCalls,
}

impl Look {
    pub(super) fn detect(json: bool, quiet: bool, tools: ShowToolCalls) -> Look {
        let terminal = io::stderr().is_terminal();
        Look {
            colour: terminal && std::env::var_os("NO_COLOR").is_none(),
            live: terminal && !quiet && !json,
            json,
            quiet,
            tools,
        }
    }

    pub(super) fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// An error line: `✗ error: …`.
    pub(super) fn error(&self, message: &str) -> String {
        format!("{} error: {message}", self.paint("31", "✗"))
    }

    /// A warning line: `⚠ …`.
    pub(super) fn warning(&self, message: &str) -> String {
        format!("{} {message}", self.paint("33", "⚠"))
    }

    fn tools_shown(&self) -> bool {
        self.tools != ShowToolCalls::Hidden && !self.quiet
    }
}

/// Prints one turn as its events arrive.
pub(super) struct TurnView<O: Write, E: Write> {
    out: O,
    err: E,
    look: Look,
    session_id: String,
    /// A state line is showing on stderr and is erased before anything else is printed.
    state_shown: bool,
    /// The call whose start line is the last tool line printed: its end line need not name it.
    adjacent_call: Option<String>,
    /// The answer's last line on stdout has no line ending yet.
    open_line: bool,
}

impl<O: Write, E: Write> TurnView<O, E> {
    pub(super) fn new(out: O, err: E, look: Look, session_id: &str) -> Self {
        TurnView {
            out,
            err,
            look,
            session_id: session_id.to_string(),
            state_shown: false,
            adjacent_call: None,
            open_line: false,
        }
    }

    #[cfg(test)]
    pub(super) fn into_parts(self) -> (O, E) {
        (self.out, self.err)
    }

    /// Print what `event` changes; a closed stdout or stderr is not the turn's concern.
    pub(super) fn event(&mut self, event: ChatEvent) {
        let _ = self.print(event);
    }

    fn print(&mut self, event: ChatEvent) -> io::Result<()> {
        match event {
            ChatEvent::TurnStarted { .. } | ChatEvent::Sources { .. } => Ok(()),
            ChatEvent::State { state, label } => self.state(state, &label),
            ChatEvent::Notice { message } if !self.look.quiet => {
                self.interrupt_answer()?;
                writeln!(self.err, "{}", self.look.warning(&message))
            }
            ChatEvent::Notice { .. } => Ok(()),
            ChatEvent::ToolCallStarted {
                id,
                label,
                arguments,
                ..
            } if self.look.tools_shown() => {
                self.interrupt_answer()?;
                writeln!(self.err, "{} {label}", self.look.paint("36", "●"))?;
                if self.look.tools == ShowToolCalls::Verbose {
                    let input = truncate_chars(&arguments.to_string(), VERBOSE_CHARS);
                    writeln!(
                        self.err,
                        "    {}",
                        self.look.paint("2", &format!("input: {input}"))
                    )?;
                }
                self.adjacent_call = Some(id);
                Ok(())
            }
            ChatEvent::ToolCallFinished { call } if self.look.tools_shown() => {
                self.interrupt_answer()?;
                self.call_finished(&call)
            }
            ChatEvent::ToolCallStarted { .. } | ChatEvent::ToolCallFinished { .. } => Ok(()),
            ChatEvent::Text { delta } if !self.look.json => {
                self.clear_state()?;
                self.out.write_all(delta.as_bytes())?;
                self.out.flush()?;
                if !delta.is_empty() {
                    self.open_line = !delta.ends_with('\n');
                }
                Ok(())
            }
            ChatEvent::Text { .. } => Ok(()),
            ChatEvent::TurnFinished { turn } => self.finished(&turn),
        }
    }

    /// What the assistant is doing, on a line rewritten in place (a terminal only; the tool
    /// calls and the answer say it otherwise).
    fn state(&mut self, state: TurnState, label: &str) -> io::Result<()> {
        if !self.look.live || state == TurnState::CallingTools {
            return Ok(());
        }
        if state == TurnState::Answering {
            return self.clear_state();
        }
        self.end_answer_line()?;
        let line = self.look.paint("2", &format!("… {label}"));
        write!(self.err, "\r\x1b[2K{line}")?;
        self.err.flush()?;
        self.state_shown = true;
        Ok(())
    }

    fn clear_state(&mut self) -> io::Result<()> {
        if self.state_shown {
            self.state_shown = false;
            write!(self.err, "\r\x1b[2K")?;
            self.err.flush()?;
        }
        Ok(())
    }

    /// Before a line on stderr: the state line goes, and the answer's line is ended.
    fn interrupt_answer(&mut self) -> io::Result<()> {
        self.clear_state()?;
        self.end_answer_line()
    }

    fn end_answer_line(&mut self) -> io::Result<()> {
        if self.open_line {
            self.open_line = false;
            writeln!(self.out)?;
            self.out.flush()?;
        }
        Ok(())
    }

    fn call_finished(&mut self, call: &ChatToolCall) -> io::Result<()> {
        let mark = if call.ok {
            self.look.paint("32", "✔")
        } else {
            self.look.paint("31", "✗")
        };
        let duration = self.look.paint("2", &format!("[{}ms]", call.duration_ms));
        let named = if self.adjacent_call.take().as_deref() == Some(call.id.as_str()) {
            String::new()
        } else {
            format!("{}: ", call.label)
        };
        writeln!(
            self.err,
            "  {mark} {named}{}  {duration}",
            one_line(&call.summary)
        )?;
        if self.look.tools == ShowToolCalls::Verbose
            && let Some(output) = &call.output
        {
            let pretty = serde_json::to_string_pretty(output).unwrap_or_default();
            let shown = truncate_chars(&pretty, VERBOSE_CHARS);
            for line in shown.lines() {
                writeln!(self.err, "    {}", self.look.paint("2", line))?;
            }
        }
        Ok(())
    }

    fn finished(&mut self, turn: &ChatTurn) -> io::Result<()> {
        self.clear_state()?;
        if self.look.json {
            writeln!(self.out, "{}", turn_json(turn, &self.session_id))?;
        } else {
            self.end_answer_line()?;
            if !turn.answer.is_empty() && !turn.sources.is_empty() {
                writeln!(self.out, "\n{}", sources_block(&turn.sources))?;
            }
        }
        self.out.flush()?;
        match turn.status {
            TurnStatus::Done if turn.answer.is_empty() && !self.look.quiet => {
                writeln!(
                    self.err,
                    "{}",
                    self.look.warning("the model gave no answer")
                )?;
            }
            TurnStatus::Done if !self.look.quiet => {
                let footer = self.look.paint("2", &footer(turn));
                writeln!(self.err, "{footer}")?;
            }
            TurnStatus::Done => {}
            TurnStatus::Failed => {
                let message = turn.error.as_deref().unwrap_or("the turn failed");
                writeln!(self.err, "{}", self.look.error(message))?;
            }
            TurnStatus::Cancelled => {
                let line = "■ cancelled (what had arrived is kept in the history)";
                writeln!(self.err, "{}", self.look.paint("2", line))?;
            }
        }
        if !self.look.json {
            writeln!(self.out)?;
        }
        self.out.flush()?;
        self.err.flush()
    }
}

/// `turn` as `--json` prints it: the recorded turn with the session's id.
pub(super) fn turn_json(turn: &ChatTurn, session_id: &str) -> Value {
    let mut object = Map::new();
    object.insert("sessionId".into(), Value::String(session_id.to_string()));
    if let Ok(Value::Object(fields)) = serde_json::to_value(turn) {
        object.extend(fields);
    }
    Value::Object(object)
}

/// The sources under an answer: `  [1] auth.md (relevance: 0.94)`.
pub(super) fn sources_block(sources: &[ChatSource]) -> String {
    let mut lines = vec!["Sources:".to_string()];
    lines.extend(sources.iter().take(SOURCES_SHOWN).map(|s| {
        let quoted = match s.passages.len() {
            0 => String::new(),
            1 => " · 1 sentence quoted".to_string(),
            n => format!(" · {n} sentences quoted"),
        };
        format!(
            "  [{}] {}{}{quoted}",
            s.index,
            one_line(&s.title),
            relevance(s)
        )
    }));
    if sources.len() > SOURCES_SHOWN {
        lines.push(format!(
            "  … and {} more (/sources lists them all)",
            sources.len() - SOURCES_SHOWN
        ));
    }
    lines.join("\n")
}

pub(super) fn relevance(source: &ChatSource) -> String {
    source
        .score
        .map(|s| format!(" (relevance: {s:.2})"))
        .unwrap_or_default()
}

/// Where a finished turn's time went and what it cost: `[2.3s · 480→61 tokens · $0.0021]`, or
/// how an answer the model did not write was made: `[0.8s · quoted from the sources]`.
fn footer(turn: &ChatTurn) -> String {
    let seconds = turn.timings.total_ms as f64 / 1000.0;
    let usage = &turn.usage;
    let made = match turn.method {
        Some(AnswerMethod::Extractive) => " · quoted from the sources",
        Some(AnswerMethod::Declined) => " · not in the sources",
        _ => "",
    };
    let cost = usage
        .cost
        .as_ref()
        .map(|c| format!(" · {}", crate::render::cost(c)))
        .unwrap_or_default();
    if usage.llm_input_tokens + usage.llm_output_tokens == 0 {
        format!("[{seconds:.1}s{made}{cost}]")
    } else {
        format!(
            "[{seconds:.1}s · {}→{} tokens{cost}]",
            usage.llm_input_tokens, usage.llm_output_tokens
        )
    }
}

/// `text` on one line.
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
