//! `vai workflow run --step` in a terminal: before each step the run pauses, the step and its
//! inputs are shown, and a line typed at the prompt goes on — Enter runs the step, `c` runs on
//! (to the end, or to the next `--break`), `q` cancels. Ctrl-C cancels as it does any run.
//! Lines are read on a thread of their own (a blocking read of a terminal cannot be cancelled);
//! a line typed before a pause was shown is not an answer to it. Steps already running finish
//! during a pause: their lines go below the prompt, which is shown again after them.

use crate::render;
use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use vai_workflow::{EventSink, ResumeAction, RunEvent, Stepping};

/// Passes every event on to the progress sink, and shows each pause and hands it to the
/// keyboard.
pub(super) struct Stepper {
    inner: Arc<dyn EventSink>,
    /// The progress sink prints step lines (not `--quiet`).
    prints: bool,
    names: HashMap<String, String>,
    /// What `c` does: "run to the end", or "continue to the next breakpoint".
    go_on: &'static str,
    /// When each pause was shown.
    paused: mpsc::UnboundedSender<Instant>,
    /// The name of the step whose prompt waits on the screen, until it is answered.
    prompt: Arc<Mutex<Option<String>>>,
}

impl Stepper {
    fn name<'a>(&'a self, id: &'a str) -> &'a str {
        self.names.get(id).map_or(id, String::as_str)
    }
}

impl EventSink for Stepper {
    fn emit(&self, event: RunEvent) {
        let mut prompt = self.prompt.lock().unwrap_or_else(|e| e.into_inner());
        let mut stderr = std::io::stderr().lock();
        match &event {
            RunEvent::Paused {
                step_id,
                tool,
                breakpoint,
                inputs,
                ..
            } => {
                // Taken before the prompt shows: a line read after it answers this pause.
                let shown = Instant::now();
                let name = self.name(step_id);
                let text = render::pause(
                    name,
                    step_id,
                    tool,
                    *breakpoint,
                    inputs.as_deref(),
                    self.go_on,
                );
                let _ = write!(stderr, "{text}");
                let _ = stderr.flush();
                *prompt = Some(name.to_string());
                let _ = self.paused.send(shown);
            }
            RunEvent::Resumed { .. } => *prompt = None,
            // A step that was running finished during the pause: its line goes below the
            // prompt, and the prompt is shown again.
            RunEvent::StepCompleted { .. }
            | RunEvent::StepRetrying { .. }
            | RunEvent::StepFailed {
                continued: true, ..
            } if self.prints && prompt.is_some() => {
                let _ = writeln!(stderr);
                drop(stderr);
                self.inner.emit(event);
                let name = prompt.as_deref().unwrap_or_default();
                eprint!("  still paused before {name}: Enter, c or q › ");
                return;
            }
            // The run ends under the prompt.
            RunEvent::StepFailed {
                continued: false, ..
            }
            | RunEvent::StepCancelled { .. }
                if prompt.is_some() =>
            {
                *prompt = None;
                let _ = writeln!(stderr);
            }
            _ => {}
        }
        drop(stderr);
        self.inner.emit(event);
    }
}

/// The sink for a step-through run, and the task that answers its pauses from standard input
/// through `stepping`, cancelling the run on `q` or at the end of the input.
pub(super) fn stepper(
    inner: Arc<dyn EventSink>,
    prints: bool,
    names: HashMap<String, String>,
    has_breakpoints: bool,
    stepping: Stepping,
    cancel: CancellationToken,
) -> Stepper {
    let (paused, mut pauses) = mpsc::unbounded_channel::<Instant>();
    let mut lines = stdin_lines();
    let prompt = Arc::new(Mutex::new(None));
    let answered = prompt.clone();
    tokio::spawn(async move {
        while let Some(shown) = pauses.recv().await {
            loop {
                let line = match lines.recv().await {
                    Some((read, _)) if read < shown => continue,
                    Some((_, Some(line))) => line,
                    // The end of the input (Ctrl-D) or a read error: nobody can answer.
                    Some((_, None)) | None => {
                        cancel.cancel();
                        return;
                    }
                };
                let action = match line.trim() {
                    "" => ResumeAction::Next,
                    "c" | "C" => ResumeAction::Continue,
                    "q" | "Q" => {
                        *answered.lock().unwrap_or_else(|e| e.into_inner()) = None;
                        cancel.cancel();
                        return;
                    }
                    other => {
                        eprint!(
                            "  \"{}\" is not an answer: Enter, c or q › ",
                            vai_workflow::value::truncate_chars(other, 20)
                        );
                        continue;
                    }
                };
                // The line typed ended the prompt's line on the screen.
                *answered.lock().unwrap_or_else(|e| e.into_inner()) = None;
                // The run may have ended meanwhile (another step failed): nothing to resume.
                let _ = stepping.resume(action);
                break;
            }
        }
    });
    Stepper {
        inner,
        prints,
        names,
        go_on: if has_breakpoints {
            "continue to the next breakpoint"
        } else {
            "run to the end"
        },
        paused,
        prompt,
    }
}

/// Standard input a line at a time, each with when it was read; `None` at its end.
fn stdin_lines() -> mpsc::UnboundedReceiver<(Instant, Option<String>)> {
    let (sender, lines) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut line = String::new();
        loop {
            line.clear();
            // A line is a key press and Enter: a megabyte-long one is not read whole.
            let read = (&mut stdin).take(4096).read_line(&mut line);
            let text = match read {
                Ok(0) | Err(_) => None,
                Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
            };
            let end = text.is_none();
            if sender.send((Instant::now(), text)).is_err() || end {
                break;
            }
        }
    });
    lines
}
