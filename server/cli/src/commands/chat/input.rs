//! The lines typed or piped into `vai chat`, and Ctrl-C. Lines are read on a thread of their own:
//! a blocking read of a terminal cannot be cancelled, and on the runtime's blocking pool it would
//! hold up the exit until Enter is pressed. Each line is bounded, so a pasted megabyte or a file
//! without line breaks cannot fill the memory.

use std::io::{self, BufRead};
use tokio::sync::mpsc;

/// The most of one line kept; the rest is counted and dropped (a question may be far shorter:
/// `vai_chat::MAX_QUESTION_BYTES`).
pub(super) const MAX_LINE: usize = 1024 * 1024;

/// One line, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Line {
    /// The text, at most [`MAX_LINE`] bytes of it (invalid UTF-8 replaced).
    pub(super) text: String,
    /// The line's whole length in bytes.
    pub(super) bytes: usize,
    /// Only the first [`MAX_LINE`] bytes were kept.
    pub(super) cut: bool,
}

/// Standard input, a line at a time.
pub(super) struct Lines {
    lines: mpsc::Receiver<io::Result<Line>>,
}

impl Lines {
    /// Start reading standard input on a thread; it reads a line ahead at most.
    pub(super) fn stdin() -> Lines {
        let (sender, lines) = mpsc::channel(1);
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            loop {
                let line = match read_line(&mut stdin, MAX_LINE) {
                    Ok(Some(line)) => Ok(line),
                    Ok(None) => break,
                    Err(e) => Err(e),
                };
                let failed = line.is_err();
                if sender.blocking_send(line).is_err() || failed {
                    break;
                }
            }
        });
        Lines { lines }
    }

    /// The next line; `None` at the end of the input (Ctrl-D).
    pub(super) async fn next(&mut self) -> Option<io::Result<Line>> {
        self.lines.recv().await
    }
}

/// One line of `reader`, keeping at most `max` bytes of it; `None` at the end of the input.
pub(super) fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut bytes = 0;
    let mut ended = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        let (chunk, newline) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        bytes += chunk.len();
        let used = chunk.len() + usize::from(newline);
        reader.consume(used);
        if newline {
            ended = true;
            break;
        }
    }
    if bytes == 0 && !ended {
        return Ok(None);
    }
    let cut = bytes > kept.len();
    if !cut && kept.last() == Some(&b'\r') {
        kept.pop();
        bytes -= 1;
    }
    Ok(Some(Line {
        text: String::from_utf8_lossy(&kept).into_owned(),
        bytes,
        cut,
    }))
}

/// Ctrl-C presses, each one seen even when it comes between two waits for it.
pub(super) struct Interrupts {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Interrupts {
    /// Catch Ctrl-C from now on (it no longer ends the process by itself).
    pub(super) fn catch() -> Interrupts {
        Interrupts {
            #[cfg(unix)]
            signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok(),
        }
    }

    /// The next press.
    pub(super) async fn next(&mut self) {
        #[cfg(unix)]
        if let Some(signal) = &mut self.signal {
            if signal.recv().await.is_none() {
                std::future::pending::<()>().await;
            }
            return;
        }
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(4, input);
        std::iter::from_fn(|| read_line(&mut reader, max).unwrap()).collect()
    }

    fn line(text: &str, bytes: usize, cut: bool) -> Line {
        Line {
            text: text.into(),
            bytes,
            cut,
        }
    }

    #[test]
    fn lines_lose_their_endings_and_keep_empty_ones() {
        assert_eq!(
            lines(b"first\r\n\nsecond line\nlast", 100),
            [
                line("first", 5, false),
                line("", 0, false),
                line("second line", 11, false),
                line("last", 4, false)
            ]
        );
        assert_eq!(lines(b"", 100), []);
    }

    #[test]
    fn a_long_line_is_cut_and_measured_and_the_next_one_is_whole() {
        let mut input = vec![b'x'; 25];
        input.extend_from_slice(b"\nnext\n");
        assert_eq!(
            lines(&input, 10),
            [line("xxxxxxxxxx", 25, true), line("next", 4, false)]
        );
    }
}
