//! Finding `{{ … }}` blocks in a string, for templates.
//!
//! A block ends at the first `}}` outside a quoted string literal, so `{{ x || '}}' }}` is one
//! block. When a quote is never closed the first `}}` ends the block instead, letting the
//! expression parser report the unterminated string where it starts. There is no escape for a
//! literal `{{`.

use super::lexer::error;
use super::syntax::SyntaxError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece<'s> {
    Text(&'s str),
    /// A `{{ expr }}` block: `open` is the character offset of `{{`, `start` that of `expr`.
    Block {
        expr: &'s str,
        open: usize,
        start: usize,
    },
}

/// Split `s` into text and blocks; an opening `{{` with no closing `}}` is an error at the `{{`.
pub(crate) fn scan(s: &str) -> Result<Vec<Piece<'_>>, SyntaxError> {
    let mut pieces = Vec::new();
    let (mut byte, mut chars) = (0, 0);
    while let Some(found) = s[byte..].find("{{") {
        let open_byte = byte + found;
        let open = chars + s[byte..open_byte].chars().count();
        if open_byte > byte {
            pieces.push(Piece::Text(&s[byte..open_byte]));
        }
        let start_byte = open_byte + 2;
        let end_byte =
            start_byte + closing(&s[start_byte..]).ok_or_else(|| error(open, "unclosed '{{'"))?;
        let expr = &s[start_byte..end_byte];
        pieces.push(Piece::Block {
            expr,
            open,
            start: open + 2,
        });
        chars = open + 2 + expr.chars().count() + 2;
        byte = end_byte + 2;
    }
    if byte < s.len() {
        pieces.push(Piece::Text(&s[byte..]));
    }
    Ok(pieces)
}

/// Byte offset of the `}}` closing a block whose text is `rest`.
fn closing(rest: &str) -> Option<usize> {
    // Every delimiter is ASCII, so stepping through UTF-8 bytes never misreads a character.
    let bytes = rest.as_bytes();
    let mut quote = None;
    let mut i = 0;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(bytes[i]),
            (None, b'}') if bytes.get(i + 1) == Some(&b'}') => return Some(i),
            (None, _) => {}
        }
        i += 1;
    }
    rest.find("}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(expr: &str, open: usize) -> Piece<'_> {
        Piece::Block {
            expr,
            open,
            start: open + 2,
        }
    }

    #[test]
    fn text_and_blocks() {
        assert_eq!(scan("plain").unwrap(), [Piece::Text("plain")]);
        assert_eq!(scan("{{ a }}").unwrap(), [block(" a ", 0)]);
        assert_eq!(
            scan("é {{a}} and {{ b }}!").unwrap(),
            [
                Piece::Text("é "),
                block("a", 2),
                Piece::Text(" and "),
                block(" b ", 12),
                Piece::Text("!")
            ]
        );
        assert_eq!(scan("{{a}}}").unwrap(), [block("a", 0), Piece::Text("}")]);
    }

    #[test]
    fn quotes_hide_closing_braces() {
        assert_eq!(scan("{{ x || '}}' }}").unwrap(), [block(" x || '}}' ", 0)]);
        assert_eq!(
            scan(r#"{{ "a\"}}" }}"#).unwrap(),
            [block(r#" "a\"}}" "#, 0)]
        );
        // An unterminated quote falls back to the first `}}`.
        assert_eq!(
            scan("{{ it's }} x").unwrap(),
            [block(" it's ", 0), Piece::Text(" x")]
        );
    }

    #[test]
    fn unclosed_blocks() {
        assert_eq!(scan("ab {{ x").unwrap_err(), error(3, "unclosed '{{'"));
        assert_eq!(
            scan("{{ a }} {{ b }").unwrap_err(),
            error(8, "unclosed '{{'")
        );
    }
}
