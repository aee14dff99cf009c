//! An incremental parser for server-sent events (`text/event-stream`), as both the Anthropic and
//! the OpenAI-compatible APIs stream their answers.
//!
//! Bytes arrive in arbitrary network chunks; [`SseParser::push`] buffers partial lines and returns
//! every event completed so far. It follows the WHATWG rules the APIs rely on: `\n`, `\r\n` and
//! `\r` line ends, `:` comment lines, `data:` lines joined with `\n`, one optional space after the
//! colon, and an event dispatched on a blank line. `id:` and `retry:` are ignored.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SseEvent {
    /// The `event:` field; `None` when the event had none (OpenAI sends only `data:` lines).
    pub event: Option<String>,
    pub data: String,
}

/// Why a stream could not be read as server-sent events.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SseError {
    #[error("the event stream is not valid UTF-8")]
    Utf8,
    #[error("an event stream line is longer than {0} bytes")]
    LineTooLong(usize),
}

/// Longest line accepted: a bound on memory when a server never sends a line end.
const MAX_LINE: usize = 4 << 20;

#[derive(Debug, Default)]
pub(crate) struct SseParser {
    /// Bytes of the line being received.
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a `\n` starting the next one belongs to that line end.
    after_cr: bool,
    event: Option<String>,
    data: Option<String>,
}

impl SseParser {
    pub(super) fn new() -> Self {
        Self::default()
    }

    /// Feed the next bytes; returns the events they completed, in order.
    pub(super) fn push(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut events = Vec::new();
        let mut rest = bytes;
        if self.after_cr {
            self.after_cr = false;
            if let Some(stripped) = rest.strip_prefix(b"\n") {
                rest = stripped;
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.take_line(&rest[..end])?;
            let line = std::mem::take(&mut self.line);
            if let Some(event) = self.field(&line)? {
                events.push(event);
            }
            let crlf = rest[end] == b'\r';
            rest = &rest[end + 1..];
            if crlf {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
        }
        self.take_line(rest)?;
        Ok(events)
    }

    fn take_line(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        if self.line.len() + bytes.len() > MAX_LINE {
            return Err(SseError::LineTooLong(MAX_LINE));
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    /// Apply one complete line; a blank line dispatches the pending event.
    fn field(&mut self, line: &[u8]) -> Result<Option<SseEvent>, SseError> {
        if line.is_empty() {
            let event = self.event.take();
            return Ok(self.data.take().map(|data| SseEvent { event, data }));
        }
        // Line ends never occur inside a multi-byte character, so each line decodes on its own.
        let line = std::str::from_utf8(line).map_err(|_| SseError::Utf8)?;
        if line.starts_with(':') {
            return Ok(None);
        }
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match name {
            "event" => self.event = Some(value.to_string()),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            _ => {}
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(event: Option<&str>, data: &str) -> SseEvent {
        SseEvent {
            event: event.map(str::to_string),
            data: data.to_string(),
        }
    }

    #[test]
    fn events_split_anywhere_are_reassembled_in_order() {
        let stream = "event: message_start\ndata: {\"a\":1}\n\n: keep-alive\n\nevent: ping\r\ndata: {}\r\n\r\ndata: x\ndata:  y\n\ndata: [DONE]\r\r";
        let expected = vec![
            ev(Some("message_start"), "{\"a\":1}"),
            ev(Some("ping"), "{}"),
            ev(None, "x\n y"),
            ev(None, "[DONE]"),
        ];
        // Every way of cutting the stream in two gives the same events.
        for cut in 0..=stream.len() {
            let mut p = SseParser::new();
            let mut got = p.push(&stream.as_bytes()[..cut]).unwrap();
            got.extend(p.push(&stream.as_bytes()[cut..]).unwrap());
            assert_eq!(got, expected, "cut at {cut}");
        }
        // And byte by byte.
        let mut p = SseParser::new();
        let got: Vec<SseEvent> = stream
            .as_bytes()
            .iter()
            .flat_map(|b| p.push(std::slice::from_ref(b)).unwrap())
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn multibyte_characters_split_across_chunks_survive() {
        let bytes = "data: héllo — 世界\n\n".as_bytes();
        let mut p = SseParser::new();
        let mut got = p.push(&bytes[..8]).unwrap();
        got.extend(p.push(&bytes[8..]).unwrap());
        assert_eq!(got, vec![ev(None, "héllo — 世界")]);
    }

    #[test]
    fn fields_without_data_and_unknown_fields_dispatch_nothing() {
        let mut p = SseParser::new();
        assert!(
            p.push(b"event: lonely\n\nid: 7\nretry: 10\n\n")
                .unwrap()
                .is_empty()
        );
        // The event name does not leak into the next event.
        assert_eq!(p.push(b"data\n\n").unwrap(), vec![ev(None, "")]);
        // An event cut off by the end of the stream is never dispatched.
        assert!(p.push(b"data: partial").unwrap().is_empty());
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        let mut p = SseParser::new();
        assert_eq!(p.push(b"data: \xff\xfe\n\n"), Err(SseError::Utf8));
    }
}
