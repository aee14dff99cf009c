//! The expression lexer: source text to tokens, positions counted in characters.
//!
//! Two pieces of context make it slightly more than a flat tokenizer: after a `.` it reads a
//! property name (an identifier, keywords included, or a run of digits, so `results.0.score`
//! is three segments rather than `results` followed by the number `0.`), and a `.` followed by a
//! digit starts a number (`.5`) only where an operand is expected. In condition mode `{{` and
//! `}}` are tokens of their own.

use super::syntax::SyntaxError;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Number(f64),
    Str(String),
    Ident(String),
    /// A property name after `.`: an identifier (keywords included) or a run of digits.
    Name(String),
    True,
    False,
    Null,
    Undefined,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    Question,
    Colon,
    Not,
    Eq,
    Ne,
    StrictEq,
    StrictNe,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    OpenTemplate,
    CloseTemplate,
    End,
}

impl Tok {
    /// How the token reads in an "unexpected …" message.
    pub(crate) fn describe(&self) -> String {
        let symbol = match self {
            Tok::Number(_) => return "unexpected number".into(),
            Tok::Str(_) => return "unexpected string".into(),
            Tok::Ident(n) | Tok::Name(n) => return format!("unexpected identifier '{n}'"),
            Tok::End => return "unexpected end of expression".into(),
            Tok::True => "true",
            Tok::False => "false",
            Tok::Null => "null",
            Tok::Undefined => "undefined",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Dot => ".",
            Tok::Question => "?",
            Tok::Colon => ":",
            Tok::Not => "!",
            Tok::Eq => "==",
            Tok::Ne => "!=",
            Tok::StrictEq => "===",
            Tok::StrictNe => "!==",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::And => "&&",
            Tok::Or => "||",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::OpenTemplate => "{{",
            Tok::CloseTemplate => "}}",
        };
        format!("unexpected '{symbol}'")
    }

    /// Whether the token can end an operand (so a following `.5` is member access, not a number).
    pub(crate) fn ends_operand(&self) -> bool {
        matches!(
            self,
            Tok::Number(_)
                | Tok::Str(_)
                | Tok::Ident(_)
                | Tok::Name(_)
                | Tok::True
                | Tok::False
                | Tok::Null
                | Tok::Undefined
                | Tok::RParen
                | Tok::RBracket
                | Tok::CloseTemplate
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    /// Character offset of the token's first character.
    pub pos: usize,
    /// Character offset just past its last character.
    pub end: usize,
}

pub(crate) struct Lexer {
    chars: Vec<char>,
    pos: usize,
    templates: bool,
    after_dot: bool,
    after_operand: bool,
}

pub(crate) fn error(position: usize, message: impl Into<String>) -> SyntaxError {
    SyntaxError {
        position,
        message: message.into(),
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

impl Lexer {
    /// `templates`: lex `{{` and `}}` as tokens (condition mode).
    pub(crate) fn new(src: &str, templates: bool) -> Self {
        Self {
            chars: src.chars().collect(),
            pos: 0,
            templates,
            after_dot: false,
            after_operand: false,
        }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    pub(crate) fn next_token(&mut self) -> Result<Token, SyntaxError> {
        while self.peek(0).is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
        let pos = self.pos;
        let tok = self.lex_token()?;
        self.after_dot = tok == Tok::Dot;
        self.after_operand = tok.ends_operand();
        Ok(Token {
            tok,
            pos,
            end: self.pos,
        })
    }

    fn lex_token(&mut self) -> Result<Tok, SyntaxError> {
        let start = self.pos;
        let Some(c) = self.peek(0) else {
            return Ok(Tok::End);
        };
        if self.after_dot && (is_ident_start(c) || c.is_ascii_digit()) {
            let name = self.take_while(if c.is_ascii_digit() {
                |c: char| c.is_ascii_digit()
            } else {
                is_ident_char
            });
            return Ok(Tok::Name(name));
        }
        if is_ident_start(c) {
            let word = self.take_while(is_ident_char);
            return Ok(match word.as_str() {
                "true" => Tok::True,
                "false" => Tok::False,
                "null" => Tok::Null,
                "undefined" => Tok::Undefined,
                _ => Tok::Ident(word),
            });
        }
        let next = self.peek(1);
        let leading_dot_number = c == '.' && !self.after_operand;
        if c.is_ascii_digit() || (leading_dot_number && next.is_some_and(|n| n.is_ascii_digit())) {
            return self.number();
        }
        if c == '\'' || c == '"' {
            return self.string(c);
        }
        let (tok, len) = match (c, next) {
            ('(', _) => (Tok::LParen, 1),
            (')', _) => (Tok::RParen, 1),
            ('[', _) => (Tok::LBracket, 1),
            (']', _) => (Tok::RBracket, 1),
            ('.', _) => (Tok::Dot, 1),
            ('?', _) => (Tok::Question, 1),
            (':', _) => (Tok::Colon, 1),
            ('+', _) => (Tok::Plus, 1),
            ('-', _) => (Tok::Minus, 1),
            ('*', _) => (Tok::Star, 1),
            ('/', _) => (Tok::Slash, 1),
            ('%', _) => (Tok::Percent, 1),
            ('!', Some('=')) if self.peek(2) == Some('=') => (Tok::StrictNe, 3),
            ('!', Some('=')) => (Tok::Ne, 2),
            ('!', _) => (Tok::Not, 1),
            ('=', Some('=')) if self.peek(2) == Some('=') => (Tok::StrictEq, 3),
            ('=', Some('=')) => (Tok::Eq, 2),
            ('=', _) => {
                return Err(error(
                    start,
                    "assignment is not supported (use '==' or '===' to compare)",
                ));
            }
            ('<', Some('=')) => (Tok::Le, 2),
            ('<', _) => (Tok::Lt, 1),
            ('>', Some('=')) => (Tok::Ge, 2),
            ('>', _) => (Tok::Gt, 1),
            ('&', Some('&')) => (Tok::And, 2),
            ('|', Some('|')) => (Tok::Or, 2),
            ('&', _) => return Err(error(start, "unexpected '&' (use '&&')")),
            ('|', _) => return Err(error(start, "unexpected '|' (use '||')")),
            ('{', Some('{')) if self.templates => (Tok::OpenTemplate, 2),
            ('}', Some('}')) if self.templates => (Tok::CloseTemplate, 2),
            _ => return Err(error(start, format!("unexpected '{}'", c.escape_debug()))),
        };
        self.pos += len;
        Ok(tok)
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let start = self.pos;
        while self.peek(0).is_some_and(&keep) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    /// `\d+(\.\d+)?([eE][+-]?\d+)?` or `\.\d+(…)?`; a letter or digit straight after is an error.
    fn number(&mut self) -> Result<Tok, SyntaxError> {
        let start = self.pos;
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let mut text = self.take_while(|c| c.is_ascii_digit());
        if self.peek(0) == Some('.') && digit(self.peek(1)) {
            self.pos += 1;
            text.push('.');
            text.push_str(&self.take_while(|c| c.is_ascii_digit()));
        }
        if matches!(self.peek(0), Some('e' | 'E')) {
            let sign = usize::from(matches!(self.peek(1), Some('+' | '-')));
            if digit(self.peek(1 + sign)) {
                text.extend(&self.chars[self.pos..self.pos + 1 + sign]);
                self.pos += 1 + sign;
                text.push_str(&self.take_while(|c| c.is_ascii_digit()));
            }
        }
        if self.peek(0).is_some_and(is_ident_char) {
            return Err(error(start, "invalid number"));
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Tok::Number(f)),
            _ => Err(error(start, "number out of range")),
        }
    }

    fn string(&mut self, quote: char) -> Result<Tok, SyntaxError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek(0) else {
                return Err(error(start, "unterminated string"));
            };
            self.pos += 1;
            match c {
                _ if c == quote => return Ok(Tok::Str(out)),
                '\\' => self.escape(&mut out)?,
                _ => out.push(c),
            }
        }
    }

    /// One escape sequence after a backslash: `\n \t \r \b \f \v \0 \\ \' \" \/`, `\xHH`,
    /// `\uXXXX` (surrogate pairs combine; a lone surrogate becomes U+FFFD), `\u{X…}`, and a
    /// backslash before a line break continues the line. Anything else is an error.
    fn escape(&mut self, out: &mut String) -> Result<(), SyntaxError> {
        let at = self.pos - 1;
        let Some(c) = self.peek(0) else {
            return Err(error(at, "unterminated string"));
        };
        self.pos += 1;
        match c {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0' if !self.peek(0).is_some_and(|c| c.is_ascii_digit()) => out.push('\0'),
            '\\' | '\'' | '"' | '/' => out.push(c),
            '\n' | '\u{2028}' | '\u{2029}' => {}
            '\r' => {
                if self.peek(0) == Some('\n') {
                    self.pos += 1;
                }
            }
            'x' => {
                let code = self
                    .hex(2)
                    .ok_or_else(|| error(at, "invalid '\\x' escape"))?;
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            'u' => out.push(self.unicode(at)?),
            _ => {
                return Err(error(
                    at,
                    format!("invalid escape '\\{}' in string", c.escape_debug()),
                ));
            }
        }
        Ok(())
    }

    fn hex(&mut self, len: usize) -> Option<u32> {
        let digits: String = self.chars.get(self.pos..self.pos + len)?.iter().collect();
        let code = u32::from_str_radix(&digits, 16).ok()?;
        if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += len;
        Some(code)
    }

    fn unicode(&mut self, at: usize) -> Result<char, SyntaxError> {
        let invalid = || error(at, "invalid '\\u' escape");
        if self.peek(0) == Some('{') {
            self.pos += 1;
            let digits = self.take_while(|c| c.is_ascii_hexdigit());
            if self.peek(0) != Some('}') || digits.is_empty() || digits.len() > 6 {
                return Err(invalid());
            }
            self.pos += 1;
            let code = u32::from_str_radix(&digits, 16).map_err(|_| invalid())?;
            return char::from_u32(code).ok_or_else(invalid);
        }
        let high = self.hex(4).ok_or_else(invalid)?;
        if (0xD800..0xDC00).contains(&high)
            && self.peek(0) == Some('\\')
            && self.peek(1) == Some('u')
        {
            let save = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(low) if (0xDC00..0xE000).contains(&low) => {
                    let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return Ok(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                _ => self.pos = save,
            }
        }
        Ok(char::from_u32(high).unwrap_or('\u{fffd}'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(src: &str) -> Result<Vec<Tok>, SyntaxError> {
        let mut lexer = Lexer::new(src, false);
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token()?;
            if t.tok == Tok::End {
                return Ok(out);
            }
            out.push(t.tok);
        }
    }

    fn s(text: &str) -> Tok {
        Tok::Str(text.into())
    }

    #[test]
    fn numbers_in_every_form() {
        assert_eq!(
            lex("1 2.5 1e3 2E-2").unwrap(),
            [1.0, 2.5, 1e3, 2e-2].map(Tok::Number)
        );
        assert_eq!(lex("- .5").unwrap(), [Tok::Minus, Tok::Number(0.5)]);
        assert_eq!(lex("3abc").unwrap_err(), error(0, "invalid number"));
        assert_eq!(lex("1e999").unwrap_err(), error(0, "number out of range"));
    }

    #[test]
    fn digits_after_a_dot_are_a_property_name() {
        assert_eq!(
            lex("a.0.b").unwrap(),
            [
                Tok::Ident("a".into()),
                Tok::Dot,
                Tok::Name("0".into()),
                Tok::Dot,
                Tok::Name("b".into())
            ]
        );
        // Keywords are plain names after a dot.
        assert_eq!(lex("a.null").unwrap()[2], Tok::Name("null".into()));
        // After an operand, `.5` is member access.
        assert_eq!(lex("a.5").unwrap()[2], Tok::Name("5".into()));
    }

    #[test]
    fn string_escapes() {
        assert_eq!(lex(r#"'a\n\t\r\\\'\"b'"#).unwrap(), [s("a\n\t\r\\'\"b")]);
        assert_eq!(lex(r#""it's""#).unwrap(), [s("it's")]);
        assert_eq!(lex(r"'\u00e9\u{1F600}\x41'").unwrap(), [s("é😀A")]);
        assert_eq!(lex(r"'\uD83D\uDE00'").unwrap(), [s("😀")]);
        assert_eq!(lex(r"'\uD83D'").unwrap(), [s("\u{fffd}")]);
        assert_eq!(lex("'raw\nnewline'").unwrap(), [s("raw\nnewline")]);
        assert_eq!(
            lex(r"'C:\data'").unwrap_err(),
            error(3, "invalid escape '\\d' in string")
        );
        assert_eq!(
            lex(r"'\u12'").unwrap_err(),
            error(1, "invalid '\\u' escape")
        );
        assert_eq!(
            lex("x + 'abc").unwrap_err(),
            error(4, "unterminated string")
        );
        assert_eq!(lex("'abc\\").unwrap_err(), error(4, "unterminated string"));
    }

    #[test]
    fn operators() {
        use Tok::*;
        assert_eq!(
            lex("=== !== == != <= >= < > && || ! ? : + - * / % ( ) [ ]").unwrap(),
            [
                StrictEq, StrictNe, Eq, Ne, Le, Ge, Lt, Gt, And, Or, Not, Question, Colon, Plus,
                Minus, Star, Slash, Percent, LParen, RParen, LBracket, RBracket
            ]
        );
    }

    #[test]
    fn stray_characters_are_errors_with_positions() {
        assert_eq!(lex("a }").unwrap_err(), error(2, "unexpected '}'"));
        assert_eq!(lex("a = 1").unwrap_err().position, 2);
        assert_eq!(
            lex("a & b").unwrap_err(),
            error(2, "unexpected '&' (use '&&')")
        );
        assert_eq!(lex("é").unwrap_err(), error(0, "unexpected 'é'"));
    }

    #[test]
    fn template_braces_only_in_condition_mode() {
        assert!(lex("{{ a }}").is_err());
        let mut lexer = Lexer::new("{{ a }}", true);
        assert_eq!(lexer.next_token().unwrap().tok, Tok::OpenTemplate);
        assert_eq!(lexer.next_token().unwrap().tok, Tok::Ident("a".into()));
        assert_eq!(
            lexer.next_token().unwrap(),
            Token {
                tok: Tok::CloseTemplate,
                pos: 5,
                end: 7
            }
        );
    }
}
