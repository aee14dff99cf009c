//! The recursive-descent parser: tokens to a [`Node`] tree.
//!
//! Precedence, lowest first: `?:` (right-associative), `||`, `&&`, `== != === !==`,
//! `< > <= >=`, `+ -`, `* / %`, unary `! -`, postfix `.name` / `[expr]`. Binary operators are
//! parsed by one operator-precedence loop rather than a function per level, runs of one level
//! become one flat node (`Or`, `And`, `Chain`) and member chains one `Member` node, so the
//! parser's recursion and the tree's depth — and with it every recursive walk (evaluation,
//! references, clone, drop) — grow only with nesting (parentheses, brackets, unary operators,
//! ternaries, `{{ }}` in conditions), which is checked against `MAX_DEPTH` on the way down.

use super::lexer::{Lexer, Tok, Token, error};
use super::syntax::{MAX_DEPTH, MAX_EXPR_LEN, SyntaxError};
use serde_json::Value;

/// Where a name was written: character offsets `[start, end)` in the parsed source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// `null`, `true`, `false`, a number or a string.
    Literal(Value),
    Undefined,
    Ident(String, Span),
    /// `object.a[0][expr]`: never empty; never nested directly in another `Member`.
    Member(Box<Node>, Vec<Segment>),
    Not(Box<Node>),
    Neg(Box<Node>),
    /// `a || b || …`, at least two operands.
    Or(Vec<Node>),
    /// `a && b && …`, at least two operands.
    And(Vec<Node>),
    /// A left-associative run of one precedence level: `a + b - c`.
    Chain(Box<Node>, Vec<(BinOp, Node)>),
    /// `condition ? then : otherwise`.
    Conditional(Box<[Node; 3]>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// `.name`, `.0`, or a bracket holding a string or number literal (`['a b']`, `[0]`); the
    /// span covers the name after the dot, or the whole bracket.
    Name(String, Span),
    /// `[expr]` with a computed key.
    Index(Node),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Eq,
    Ne,
    StrictEq,
    StrictNe,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// Parse a whole expression; `templates` enables `{{ e }}` as a parenthesised sub-expression.
pub(crate) fn parse(src: &str, templates: bool) -> Result<Node, SyntaxError> {
    if src.chars().nth(MAX_EXPR_LEN).is_some() {
        return Err(error(
            MAX_EXPR_LEN,
            format!("expression is longer than {MAX_EXPR_LEN} characters"),
        ));
    }
    let mut lexer = Lexer::new(src, templates);
    let tok = lexer.next_token()?;
    if tok.tok == Tok::End {
        return Err(error(tok.pos, "empty expression"));
    }
    let mut parser = Parser {
        lexer,
        tok,
        depth: 0,
    };
    let node = parser.ternary()?;
    match parser.tok.tok {
        Tok::End => Ok(node),
        Tok::LParen => Err(error(parser.tok.pos, "function calls are not supported")),
        ref other => Err(error(parser.tok.pos, other.describe())),
    }
}

struct Parser {
    lexer: Lexer,
    /// The lookahead token.
    tok: Token,
    depth: usize,
}

type Parsed = Result<Node, SyntaxError>;

impl Parser {
    fn advance(&mut self) -> Result<(), SyntaxError> {
        self.tok = self.lexer.next_token()?;
        Ok(())
    }

    fn unexpected(&self) -> SyntaxError {
        error(self.tok.pos, self.tok.tok.describe())
    }

    /// Consume `tok` or fail with `message` at the lookahead.
    fn expect(&mut self, tok: Tok, message: &str) -> Result<(), SyntaxError> {
        if self.tok.tok != tok {
            return Err(error(self.tok.pos, message));
        }
        self.advance()
    }

    /// Run `f` one nesting level deeper, refusing to pass `MAX_DEPTH`.
    fn nested(&mut self, pos: usize, f: impl FnOnce(&mut Self) -> Parsed) -> Parsed {
        if self.depth >= MAX_DEPTH {
            return Err(error(
                pos,
                format!("expression is nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        self.depth += 1;
        let node = f(self);
        self.depth -= 1;
        node
    }

    fn ternary(&mut self) -> Parsed {
        let condition = self.binary()?;
        if self.tok.tok != Tok::Question {
            return Ok(condition);
        }
        let pos = self.tok.pos;
        self.advance()?;
        self.nested(pos, |p| {
            let then = p.ternary()?;
            p.expect(Tok::Colon, "expected ':' of '?:'")?;
            let otherwise = p.ternary()?;
            Ok(Node::Conditional(Box::new([condition, then, otherwise])))
        })
    }

    /// All binary operators in one loop over an operand and an operator stack (operator
    /// precedence parsing), so a level of nesting costs one pass through here rather than one
    /// call per precedence level.
    fn binary(&mut self) -> Parsed {
        let mut operands = vec![self.unary()?];
        let mut operators: Vec<Op> = Vec::new();
        while let Some(op) = Op::of(&self.tok.tok) {
            self.advance()?;
            reduce(&mut operands, &mut operators, op.precedence());
            operators.push(op);
            operands.push(self.unary()?);
        }
        reduce(&mut operands, &mut operators, 0);
        Ok(operands.pop().unwrap_or(Node::Undefined))
    }

    fn unary(&mut self) -> Parsed {
        let pos = self.tok.pos;
        match self.tok.tok {
            Tok::Not => {
                self.advance()?;
                self.nested(pos, |p| Ok(Node::Not(Box::new(p.unary()?))))
            }
            Tok::Minus => {
                self.advance()?;
                self.nested(pos, |p| {
                    Ok(match p.unary()? {
                        Node::Literal(Value::Number(n)) => n
                            .as_f64()
                            .and_then(|f| crate::value::number(-f))
                            .map_or(Node::Undefined, Node::Literal),
                        operand => Node::Neg(Box::new(operand)),
                    })
                })
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> Parsed {
        let object = self.primary()?;
        let mut segments = Vec::new();
        loop {
            match self.tok.tok {
                Tok::Dot => {
                    self.advance()?;
                    let Tok::Name(name) = &self.tok.tok else {
                        return Err(error(self.tok.pos, "expected a property name after '.'"));
                    };
                    let span = Span {
                        start: self.tok.pos,
                        end: self.tok.end,
                    };
                    segments.push(Segment::Name(name.clone(), span));
                    self.advance()?;
                }
                Tok::LBracket => {
                    let pos = self.tok.pos;
                    self.advance()?;
                    let key = self.nested(pos, |p| p.ternary())?;
                    let span = Span {
                        start: pos,
                        end: self.tok.end,
                    };
                    self.expect(Tok::RBracket, "expected ']'")?;
                    segments.push(literal_key(key, span));
                }
                Tok::LParen => return Err(error(self.tok.pos, "function calls are not supported")),
                _ => break,
            }
        }
        if segments.is_empty() {
            return Ok(object);
        }
        Ok(match object {
            Node::Member(object, mut inner) => {
                inner.extend(segments);
                Node::Member(object, inner)
            }
            object => Node::Member(Box::new(object), segments),
        })
    }

    fn primary(&mut self) -> Parsed {
        let pos = self.tok.pos;
        let node = match &self.tok.tok {
            Tok::Number(f) => crate::value::number(*f).map_or(Node::Undefined, Node::Literal),
            Tok::Str(s) => Node::Literal(Value::String(s.clone())),
            Tok::True => Node::Literal(Value::Bool(true)),
            Tok::False => Node::Literal(Value::Bool(false)),
            Tok::Null => Node::Literal(Value::Null),
            Tok::Undefined => Node::Undefined,
            Tok::Ident(name) => Node::Ident(
                name.clone(),
                Span {
                    start: pos,
                    end: self.tok.end,
                },
            ),
            Tok::LParen => {
                self.advance()?;
                return self.nested(pos, |p| {
                    let inner = p.ternary()?;
                    p.expect(Tok::RParen, "expected ')'")?;
                    Ok(inner)
                });
            }
            Tok::OpenTemplate => {
                self.advance()?;
                if self.tok.tok == Tok::CloseTemplate {
                    return Err(error(pos, "empty '{{ }}'"));
                }
                return self.nested(pos, |p| {
                    let inner = p.ternary()?;
                    p.expect(Tok::CloseTemplate, "expected '}}'")?;
                    Ok(inner)
                });
            }
            _ => return Err(self.unexpected()),
        };
        self.advance()?;
        Ok(node)
    }
}

/// A bracket holding a string or number literal is the same as `.name`: `a['b']` ≡ `a.b`,
/// `a[0]` ≡ `a.0`.
fn literal_key(key: Node, span: Span) -> Segment {
    match key {
        Node::Literal(Value::String(s)) => Segment::Name(s, span),
        Node::Literal(Value::Number(n)) => Segment::Name(crate::value::number_text(&n), span),
        key => Segment::Index(key),
    }
}

/// A binary operator as the parser sees it.
#[derive(Debug, Clone, Copy)]
enum Op {
    Or,
    And,
    Binary(BinOp),
}

impl Op {
    fn of(tok: &Tok) -> Option<Op> {
        Some(match tok {
            Tok::Or => Op::Or,
            Tok::And => Op::And,
            Tok::Eq => Op::Binary(BinOp::Eq),
            Tok::Ne => Op::Binary(BinOp::Ne),
            Tok::StrictEq => Op::Binary(BinOp::StrictEq),
            Tok::StrictNe => Op::Binary(BinOp::StrictNe),
            Tok::Lt => Op::Binary(BinOp::Lt),
            Tok::Le => Op::Binary(BinOp::Le),
            Tok::Gt => Op::Binary(BinOp::Gt),
            Tok::Ge => Op::Binary(BinOp::Ge),
            Tok::Plus => Op::Binary(BinOp::Add),
            Tok::Minus => Op::Binary(BinOp::Sub),
            Tok::Star => Op::Binary(BinOp::Mul),
            Tok::Slash => Op::Binary(BinOp::Div),
            Tok::Percent => Op::Binary(BinOp::Rem),
            _ => return None,
        })
    }

    fn precedence(self) -> u8 {
        match self {
            Op::Or => 1,
            Op::And => 2,
            Op::Binary(op) => op.precedence(),
        }
    }
}

impl BinOp {
    fn precedence(self) -> u8 {
        match self {
            BinOp::Eq | BinOp::Ne | BinOp::StrictEq | BinOp::StrictNe => 3,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::Add | BinOp::Sub => 5,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 6,
        }
    }
}

/// Apply every stacked operator binding at least as tightly as `precedence` (all operators are
/// left-associative). A left operand that is already a run of the same level is extended, so
/// `a + b - c` is one `Chain` — also when written `(a + b) - c`, which means the same.
fn reduce(operands: &mut Vec<Node>, operators: &mut Vec<Op>, precedence: u8) {
    while operators
        .last()
        .is_some_and(|op| op.precedence() >= precedence)
    {
        let (Some(op), Some(right), Some(left)) = (operators.pop(), operands.pop(), operands.pop())
        else {
            return;
        };
        operands.push(match (op, left) {
            (Op::Or, Node::Or(mut all)) | (Op::And, Node::And(mut all)) => {
                all.push(right);
                if matches!(op, Op::Or) {
                    Node::Or(all)
                } else {
                    Node::And(all)
                }
            }
            (Op::Or, left) => Node::Or(vec![left, right]),
            (Op::And, left) => Node::And(vec![left, right]),
            (Op::Binary(op), Node::Chain(first, mut rest))
                if rest
                    .first()
                    .is_some_and(|(o, _)| o.precedence() == op.precedence()) =>
            {
                rest.push((op, right));
                Node::Chain(first, rest)
            }
            (Op::Binary(op), left) => Node::Chain(Box::new(left), vec![(op, right)]),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ident(n: &str) -> Node {
        Node::Ident(n.into(), Span::default())
    }

    fn err(src: &str) -> SyntaxError {
        parse(src, false).unwrap_err()
    }

    /// Parse, then forget where names were written: these tests are about structure.
    fn parse(src: &str, templates: bool) -> Result<Node, SyntaxError> {
        super::parse(src, templates).map(unspanned)
    }

    fn unspanned(node: Node) -> Node {
        let all = |nodes: Vec<Node>| nodes.into_iter().map(unspanned).collect();
        match node {
            Node::Ident(name, _) => Node::Ident(name, Span::default()),
            Node::Member(object, segments) => Node::Member(
                Box::new(unspanned(*object)),
                segments
                    .into_iter()
                    .map(|s| match s {
                        Segment::Name(n, _) => Segment::Name(n, Span::default()),
                        Segment::Index(k) => Segment::Index(unspanned(k)),
                    })
                    .collect(),
            ),
            Node::Not(n) => Node::Not(Box::new(unspanned(*n))),
            Node::Neg(n) => Node::Neg(Box::new(unspanned(*n))),
            Node::Or(ns) => Node::Or(all(ns)),
            Node::And(ns) => Node::And(all(ns)),
            Node::Chain(first, rest) => Node::Chain(
                Box::new(unspanned(*first)),
                rest.into_iter().map(|(op, n)| (op, unspanned(n))).collect(),
            ),
            Node::Conditional(parts) => {
                let [a, b, c] = *parts;
                Node::Conditional(Box::new([unspanned(a), unspanned(b), unspanned(c)]))
            }
            other => other,
        }
    }

    #[test]
    fn names_carry_where_they_were_written() {
        let node = super::parse("x + a.b['c d'][0][i]", false).unwrap();
        let Node::Chain(first, rest) = node else {
            panic!("{node:?}")
        };
        assert_eq!(*first, Node::Ident("x".into(), Span { start: 0, end: 1 }));
        let Node::Member(object, segments) = &rest[0].1 else {
            panic!("{rest:?}")
        };
        assert_eq!(**object, Node::Ident("a".into(), Span { start: 4, end: 5 }));
        assert_eq!(
            segments[0],
            Segment::Name("b".into(), Span { start: 6, end: 7 })
        );
        assert_eq!(
            segments[1],
            Segment::Name("c d".into(), Span { start: 7, end: 14 })
        );
        assert_eq!(
            segments[2],
            Segment::Name("0".into(), Span { start: 14, end: 17 })
        );
        assert!(
            matches!(&segments[3], Segment::Index(Node::Ident(i, Span { start: 18, end: 19 })) if i == "i")
        );
    }

    #[test]
    fn precedence_and_flat_chains() {
        assert_eq!(
            parse("a + b * c - d", false).unwrap(),
            Node::Chain(
                Box::new(ident("a")),
                vec![
                    (
                        BinOp::Add,
                        Node::Chain(Box::new(ident("b")), vec![(BinOp::Mul, ident("c"))])
                    ),
                    (BinOp::Sub, ident("d")),
                ]
            )
        );
        assert_eq!(
            parse("a || b && c || d", false).unwrap(),
            Node::Or(vec![
                ident("a"),
                Node::And(vec![ident("b"), ident("c")]),
                ident("d")
            ])
        );
    }

    #[test]
    fn ternary_is_right_associative_and_lowest() {
        assert_eq!(
            parse("a ? b : c ? d : e", false).unwrap(),
            Node::Conditional(Box::new([
                ident("a"),
                ident("b"),
                Node::Conditional(Box::new([ident("c"), ident("d"), ident("e")])),
            ]))
        );
        assert!(matches!(
            parse("a || b ? c : d", false).unwrap(),
            Node::Conditional(_)
        ));
    }

    #[test]
    fn member_chains_merge_and_literal_brackets_become_names() {
        let name = |s: &str| Segment::Name(s.into(), Span::default());
        assert_eq!(
            parse("(a.b)['c'][0].0[i]", false).unwrap(),
            Node::Member(
                Box::new(ident("a")),
                vec![
                    name("b"),
                    name("c"),
                    name("0"),
                    name("0"),
                    Segment::Index(ident("i"))
                ]
            )
        );
    }

    #[test]
    fn literals() {
        assert_eq!(parse("-2", false).unwrap(), Node::Literal(json!(-2)));
        assert_eq!(parse("1.0", false).unwrap(), Node::Literal(json!(1)));
        assert_eq!(parse("undefined", false).unwrap(), Node::Undefined);
        assert_eq!(parse(" null ", false).unwrap(), Node::Literal(json!(null)));
    }

    #[test]
    fn syntax_errors_name_the_problem_and_position() {
        assert_eq!(err("a }"), error(2, "unexpected '}'"));
        assert_eq!(err("a ? b"), error(5, "expected ':' of '?:'"));
        assert_eq!(err("f(x)"), error(1, "function calls are not supported"));
        assert_eq!(err("a.b(x)"), error(3, "function calls are not supported"));
        assert_eq!(err("(a"), error(2, "expected ')'"));
        assert_eq!(err("a[0"), error(3, "expected ']'"));
        assert_eq!(err("a."), error(2, "expected a property name after '.'"));
        assert_eq!(err("a b"), error(2, "unexpected identifier 'b'"));
        assert_eq!(err("a +"), error(3, "unexpected end of expression"));
        assert_eq!(err("   "), error(3, "empty expression"));
        assert_eq!(err("'x' 'y'"), error(4, "unexpected string"));
        assert_eq!(err("a.'x'"), error(2, "expected a property name after '.'"));
    }

    #[test]
    fn length_limit() {
        let long = "a".repeat(MAX_EXPR_LEN);
        assert!(parse(&long, false).is_ok());
        let too_long = "a".repeat(MAX_EXPR_LEN + 1);
        assert_eq!(
            parse(&too_long, false).unwrap_err(),
            error(MAX_EXPR_LEN, "expression is longer than 4096 characters")
        );
    }

    #[test]
    fn depth_limit_covers_every_kind_of_nesting() {
        let ok = |open: &str, close: &str| {
            format!("{}a{}", open.repeat(MAX_DEPTH), close.repeat(MAX_DEPTH))
        };
        let deep = |open: &str, close: &str| {
            format!(
                "{}a{}",
                open.repeat(MAX_DEPTH + 1),
                close.repeat(MAX_DEPTH + 1)
            )
        };
        let kinds = [
            ("(", ")", 0),
            ("!", "", 0),
            ("-", "", 0),
            ("x[", "]", 1),
            ("x ? ", " : y", 2),
        ];
        for (open, close, symbol_at) in kinds {
            assert!(parse(&ok(open, close), false).is_ok(), "{open}");
            let e = parse(&deep(open, close), false).unwrap_err();
            assert!(e.message.contains("nested too deeply"), "{open}: {e}");
            assert_eq!(e.position, MAX_DEPTH * open.len() + symbol_at, "{open}");
        }
        // Mixed nesting shares one budget.
        let mixed = "(!".repeat(MAX_DEPTH / 2 + 1) + "a" + &")".repeat(MAX_DEPTH / 2 + 1);
        assert!(parse(&mixed, false).is_err());
        // Long flat chains are not nesting.
        let flat = vec!["a"; 1000].join(" + ");
        assert!(parse(&flat, false).is_ok());
    }

    #[test]
    fn templates_in_condition_mode() {
        assert_eq!(
            parse("x >= {{ y }}", true).unwrap(),
            Node::Chain(Box::new(ident("x")), vec![(BinOp::Ge, ident("y"))])
        );
        assert_eq!(parse("{{ }}", true).unwrap_err(), error(0, "empty '{{ }}'"));
        assert_eq!(parse("{{ a", true).unwrap_err(), error(4, "expected '}}'"));
        assert_eq!(
            parse("a }}", true).unwrap_err(),
            error(2, "unexpected '}}'")
        );
    }
}
