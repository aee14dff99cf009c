//! Structured output: a JSON Schema an answer must follow (`responseFormat`), compiled to the
//! subset every provider can keep, checked on a finished answer ([`Schema::validate`]), and
//! followed character by character while a local model writes ([`Checker`]), so that only
//! tokens which keep the answer valid may be chosen (constrained decoding).
//!
//! The subset: `type` `object` (with `properties`; every property is written, in the schema's
//! order, and no other), `array` (`items`, `minItems`, `maxItems`), `string` (`enum`,
//! `maxLength`), `integer` and `number` (`minimum`, `maximum`), `boolean` and `null`, and `enum`
//! of strings, numbers and booleans. Anything else is refused with the field that holds it.
//! Written JSON is compact: no white space outside strings.

#[cfg(test)]
mod tests;

use serde_json::Value;

/// Longest string written when the schema sets no `maxLength`.
const DEFAULT_MAX_LENGTH: usize = 500;
/// Most items of an array when the schema sets no `maxItems`.
const DEFAULT_MAX_ITEMS: usize = 16;
/// Most digits of a number (before and after the point).
const MAX_DIGITS: usize = 15;
/// Integer ranges up to this many values are written as one of their values.
const MAX_RANGE_LITERALS: i64 = 1000;
/// Deepest nesting of a schema.
const MAX_DEPTH: usize = 16;

/// What the system prompt says of a structured answer (the provider may also enforce it).
pub fn instruction(schema: &Value) -> String {
    format!("Answer with one JSON value and nothing else, following this JSON Schema: {schema}")
}

/// Why a schema cannot be compiled: the field (`responseFormat.items`) and what is wrong there.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaError {
    pub field: String,
    pub message: String,
}

impl SchemaError {
    fn new(field: impl Into<String>, message: impl Into<String>) -> SchemaError {
        SchemaError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// A compiled `responseFormat`.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    nodes: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Object {
        /// Each property's `"name":` as written, and its node.
        properties: Vec<(String, usize)>,
    },
    Array {
        items: usize,
        min: usize,
        max: usize,
    },
    String {
        max_len: usize,
    },
    Number {
        integer: bool,
        min: Option<f64>,
        max: Option<f64>,
    },
    /// One of these exact JSON texts (an enum, `true`/`false`, `null`, a small integer range).
    Literals(Vec<String>),
}

impl Schema {
    /// Compile `schema`; the error names the field (`responseFormat.properties.score.type`).
    pub fn compile(schema: &Value) -> Result<Schema, SchemaError> {
        let mut nodes = Vec::new();
        compile(schema, "responseFormat", 0, &mut nodes)?;
        Ok(Schema { nodes })
    }

    /// A checker at the start of an answer.
    pub fn checker(&self) -> Checker<'_> {
        Checker {
            schema: self,
            stack: vec![Frame::Start(0)],
        }
    }

    /// Whether `text` is a whole answer the schema allows, and the value it holds; the error
    /// says where it went wrong. Accepts white space between tokens (a provider's native
    /// structured output may add it).
    pub fn validate(&self, text: &str) -> Result<Value, String> {
        let value: Value = serde_json::from_str(text.trim())
            .map_err(|e| format!("the answer is not JSON ({e})"))?;
        self.check(0, &value, "the answer")?;
        Ok(value)
    }

    fn check(&self, node: usize, value: &Value, at: &str) -> Result<(), String> {
        match (&self.nodes[node], value) {
            (Node::Object { properties }, Value::Object(map)) => {
                for (key, child) in properties {
                    let name = key_name(key);
                    let v = map
                        .get(name)
                        .ok_or_else(|| format!("{at} has no \"{name}\""))?;
                    self.check(*child, v, &format!("{at}.{name}"))?;
                }
                match map
                    .keys()
                    .find(|k| !properties.iter().any(|(p, _)| key_name(p) == *k))
                {
                    Some(extra) => Err(format!(
                        "{at} has \"{extra}\", which the schema does not list"
                    )),
                    None => Ok(()),
                }
            }
            (Node::Array { items, min, max }, Value::Array(list)) => {
                if list.len() < *min || list.len() > *max {
                    return Err(format!(
                        "{at} has {} items; the schema allows {min} to {max}",
                        list.len()
                    ));
                }
                list.iter()
                    .enumerate()
                    .try_for_each(|(i, v)| self.check(*items, v, &format!("{at}[{i}]")))
            }
            (Node::String { max_len }, Value::String(s)) => match s.chars().count() > *max_len {
                true => Err(format!("{at} is longer than {max_len} characters")),
                false => Ok(()),
            },
            (Node::Number { integer, min, max }, Value::Number(n)) => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                if *integer && !(n.is_i64() || n.is_u64()) {
                    return Err(format!("{at} is {n}, not an integer"));
                }
                match in_range(x, *min, *max) {
                    true => Ok(()),
                    false => Err(format!("{at} is {n}, outside {}", range_text(*min, *max))),
                }
            }
            (Node::Literals(allowed), v) => {
                if allowed
                    .iter()
                    .any(|a| serde_json::from_str::<Value>(a).is_ok_and(|a| same(&a, v)))
                {
                    Ok(())
                } else {
                    Err(format!("{at} is {v}; allowed: {}", allowed.join(", ")))
                }
            }
            (node, v) => Err(format!("{at} is {v}, not {}", node.kind())),
        }
    }
}

/// Numbers compare by value (an integer range's `3` is the answer's `3.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn in_range(x: f64, min: Option<f64>, max: Option<f64>) -> bool {
    min.is_none_or(|m| x >= m) && max.is_none_or(|m| x <= m)
}

fn range_text(min: Option<f64>, max: Option<f64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("{a}..{b}"),
        (Some(a), None) => format!(">= {a}"),
        (None, Some(b)) => format!("<= {b}"),
        (None, None) => "any".into(),
    }
}

/// `"name":` → `name` (keys are compiled without escapes).
fn key_name(key: &str) -> &str {
    &key[1..key.len() - 2]
}

impl Node {
    fn kind(&self) -> &'static str {
        match self {
            Node::Object { .. } => "an object",
            Node::Array { .. } => "an array",
            Node::String { .. } => "a string",
            Node::Number { integer: true, .. } => "an integer",
            Node::Number { .. } => "a number",
            Node::Literals(_) => "one of the allowed values",
        }
    }
}

fn compile(
    schema: &Value,
    at: &str,
    depth: usize,
    nodes: &mut Vec<Node>,
) -> Result<usize, SchemaError> {
    if depth > MAX_DEPTH {
        return Err(SchemaError::new(
            at,
            format!("nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    let Some(obj) = schema.as_object() else {
        return Err(SchemaError::new(at, "a schema must be an object"));
    };
    let index = nodes.len();
    nodes.push(Node::Literals(Vec::new()));
    let count = |key: &str, default: usize| -> Result<usize, SchemaError> {
        match obj.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| SchemaError::new(format!("{at}.{key}"), "must be a whole number")),
        }
    };
    let bound = |key: &str| -> Result<Option<f64>, SchemaError> {
        match obj.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| SchemaError::new(format!("{at}.{key}"), "must be a number")),
        }
    };
    let node = if let Some(values) = obj.get("enum") {
        let Some(values) = values.as_array().filter(|v| !v.is_empty()) else {
            return Err(SchemaError::new(
                format!("{at}.enum"),
                "must be a list of values",
            ));
        };
        let mut texts = Vec::new();
        for v in values {
            match v {
                Value::String(s) if s.chars().all(|c| c >= ' ' && c != '"' && c != '\\') => {}
                Value::Number(_) | Value::Bool(_) | Value::Null => {}
                _ => {
                    return Err(SchemaError::new(
                        format!("{at}.enum"),
                        format!(
                            "{v} cannot be written (strings without quotes, backslashes or control characters, numbers, booleans, null)"
                        ),
                    ));
                }
            }
            texts.push(v.to_string());
        }
        Node::Literals(texts)
    } else {
        let kind = obj.get("type").and_then(Value::as_str).ok_or_else(|| {
            SchemaError::new(
                format!("{at}.type"),
                "missing (object, array, string, integer, number, boolean or null)",
            )
        })?;
        match kind {
            "object" => {
                let mut properties = Vec::new();
                if let Some(props) = obj.get("properties") {
                    let Some(props) = props.as_object() else {
                        return Err(SchemaError::new(
                            format!("{at}.properties"),
                            "must be an object",
                        ));
                    };
                    for (name, sub) in props {
                        if name.chars().any(|c| c < ' ' || c == '"' || c == '\\') {
                            return Err(SchemaError::new(
                                format!("{at}.properties"),
                                format!("the name {name:?} cannot be written"),
                            ));
                        }
                        let child =
                            compile(sub, &format!("{at}.properties.{name}"), depth + 1, nodes)?;
                        properties.push((format!("\"{name}\":"), child));
                    }
                }
                Node::Object { properties }
            }
            "array" => {
                let items = match obj.get("items") {
                    Some(items) => compile(items, &format!("{at}.items"), depth + 1, nodes)?,
                    None => {
                        return Err(SchemaError::new(
                            format!("{at}.items"),
                            "missing (the schema of each item)",
                        ));
                    }
                };
                let min = count("minItems", 0)?;
                let max = count("maxItems", DEFAULT_MAX_ITEMS.max(min))?;
                if min > max {
                    return Err(SchemaError::new(
                        at,
                        format!("minItems {min} is more than maxItems {max}"),
                    ));
                }
                Node::Array { items, min, max }
            }
            "string" => Node::String {
                max_len: count("maxLength", DEFAULT_MAX_LENGTH)?,
            },
            "integer" | "number" => {
                let (min, max) = (bound("minimum")?, bound("maximum")?);
                if let (Some(a), Some(b)) = (min, max)
                    && a > b
                {
                    return Err(SchemaError::new(
                        at,
                        format!("minimum {a} is more than maximum {b}"),
                    ));
                }
                let integer = kind == "integer";
                match (integer, min, max) {
                    (true, Some(a), Some(b))
                        if (b.floor() - a.ceil()) < MAX_RANGE_LITERALS as f64 =>
                    {
                        let (a, b) = (a.ceil() as i64, b.floor() as i64);
                        Node::Literals((a..=b).map(|n| n.to_string()).collect())
                    }
                    _ => Node::Number { integer, min, max },
                }
            }
            "boolean" => Node::Literals(vec!["true".into(), "false".into()]),
            "null" => Node::Literals(vec!["null".into()]),
            other => {
                return Err(SchemaError::new(
                    format!("{at}.type"),
                    format!(
                        "\"{other}\" is not supported (object, array, string, integer, number, boolean or null)"
                    ),
                ));
            }
        }
    };
    if matches!(&node, Node::Literals(l) if l.is_empty()) {
        return Err(SchemaError::new(at, "no value satisfies it"));
    }
    nodes[index] = node;
    Ok(index)
}

/// Where an answer being written stands against the schema. Cloning is cheap: try a token on a
/// clone, keep it when every character was accepted.
#[derive(Debug, Clone)]
pub struct Checker<'a> {
    schema: &'a Schema,
    stack: Vec<Frame>,
}

#[derive(Debug, Clone)]
enum Frame {
    /// A value of this node, not begun.
    Start(usize),
    Object {
        node: usize,
        /// Properties whose value is written.
        written: usize,
        opened: bool,
    },
    /// A property's `"name":`, `typed` bytes in; then the value of `value`.
    Key {
        node: usize,
        property: usize,
        typed: usize,
    },
    Array {
        node: usize,
        count: usize,
        opened: bool,
    },
    String {
        max_len: usize,
        /// Characters written; `None` before the opening quote.
        len: Option<usize>,
        escape: Escape,
    },
    Number {
        node: usize,
        text: String,
    },
    Literal {
        node: usize,
        /// Indices of the texts `typed` still begins.
        allowed: Vec<usize>,
        typed: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Escape {
    None,
    Backslash,
    /// Hex digits of a `\u` escape read so far.
    Hex(u8),
}

/// What the top frame did with a character.
enum Step {
    Took,
    /// Took it, and its value is whole.
    TookLast,
    /// Its value was whole already; the character is for the parent.
    Ended,
    /// It pushed a child, which the character begins.
    Retry,
    Refused,
}

impl Checker<'_> {
    /// Feed one character; false when the schema cannot allow it (the checker is then spoilt:
    /// try characters on a clone).
    pub fn feed(&mut self, c: char) -> bool {
        loop {
            let Some(top) = self.stack.last_mut() else {
                return false;
            };
            if let Frame::Start(node) = *top {
                *top = begin(self.schema, node);
            }
            match self.step(c) {
                Step::Took => return true,
                Step::TookLast => {
                    self.pop();
                    return true;
                }
                Step::Ended => self.pop(),
                Step::Retry => {}
                Step::Refused => return false,
            }
        }
    }

    /// Feed every character of `text`.
    pub fn feed_str(&mut self, text: &str) -> bool {
        text.chars().all(|c| self.feed(c))
    }

    /// The answer is whole: nothing more may be written.
    pub fn is_complete(&self) -> bool {
        self.stack.is_empty()
    }

    /// The answer may end here: whole, or a number or literal at the top level that could go on
    /// but need not.
    pub fn can_end(&self) -> bool {
        match self.stack.as_slice() {
            [] => true,
            [Frame::Number { node, text }] => number_is_whole(&self.schema.nodes[*node], text),
            [
                Frame::Literal {
                    node,
                    allowed,
                    typed,
                },
            ] => {
                let Node::Literals(texts) = &self.schema.nodes[*node] else {
                    return false;
                };
                allowed.iter().any(|&i| texts[i] == *typed)
            }
            _ => false,
        }
    }

    /// A value is whole: its parent goes on.
    fn pop(&mut self) {
        self.stack.pop();
        match self.stack.last_mut() {
            Some(Frame::Object { written, .. }) => *written += 1,
            Some(Frame::Array { count, .. }) => *count += 1,
            _ => {}
        }
    }

    fn step(&mut self, c: char) -> Step {
        let nodes = &self.schema.nodes;
        let top = self.stack.len() - 1;
        let push = match &mut self.stack[top] {
            Frame::Start(_) => return Step::Refused,
            Frame::Object {
                node,
                written,
                opened,
            } => {
                let Node::Object { properties } = &nodes[*node] else {
                    return Step::Refused;
                };
                let next_key = Frame::Key {
                    node: *node,
                    property: *written,
                    typed: 0,
                };
                match (c, *opened) {
                    ('{', false) => {
                        *opened = true;
                        match properties.is_empty() {
                            true => return Step::Took,
                            false => next_key,
                        }
                    }
                    (',', true) if *written > 0 && *written < properties.len() => next_key,
                    ('}', true) if *written >= properties.len() => return Step::TookLast,
                    _ => return Step::Refused,
                }
            }
            Frame::Key {
                node,
                property,
                typed,
            } => {
                let Node::Object { properties } = &nodes[*node] else {
                    return Step::Refused;
                };
                let (text, value) = &properties[*property];
                if !text[*typed..].starts_with(c) {
                    return Step::Refused;
                }
                *typed += c.len_utf8();
                if *typed == text.len() {
                    // Typed: the key's place is its value's.
                    self.stack[top] = Frame::Start(*value);
                }
                return Step::Took;
            }
            Frame::Array {
                node,
                count,
                opened,
            } => {
                let Node::Array { items, min, max } = nodes[*node] else {
                    return Step::Refused;
                };
                match (c, *opened, *count) {
                    ('[', false, _) => {
                        *opened = true;
                        return Step::Took;
                    }
                    (_, false, _) => return Step::Refused,
                    (']', true, n) if n >= min => return Step::TookLast,
                    (',', true, n) if n > 0 && n < max => {
                        self.stack.push(Frame::Start(items));
                        return Step::Took;
                    }
                    (_, true, 0) if max > 0 => {
                        self.stack.push(Frame::Start(items));
                        return Step::Retry;
                    }
                    _ => return Step::Refused,
                }
            }
            Frame::String {
                max_len,
                len,
                escape,
            } => return string_step(c, *max_len, len, escape),
            Frame::Number { node, text } => {
                let node = &nodes[*node];
                text.push(c);
                if number_prefix_ok(node, text) {
                    return Step::Took;
                }
                text.pop();
                return match number_is_whole(node, text) {
                    true => Step::Ended,
                    false => Step::Refused,
                };
            }
            Frame::Literal {
                node,
                allowed,
                typed,
            } => {
                let Node::Literals(texts) = &nodes[*node] else {
                    return Step::Refused;
                };
                typed.push(c);
                let still: Vec<usize> = allowed
                    .iter()
                    .copied()
                    .filter(|&i| texts[i].starts_with(typed.as_str()))
                    .collect();
                if still.is_empty() {
                    typed.pop();
                    return match allowed.iter().any(|&i| texts[i] == *typed) {
                        true => Step::Ended,
                        false => Step::Refused,
                    };
                }
                let whole = still.len() == 1 && texts[still[0]] == *typed;
                *allowed = still;
                return match whole {
                    true => Step::TookLast,
                    false => Step::Took,
                };
            }
        };
        self.stack.push(push);
        Step::Took
    }
}

fn begin(schema: &Schema, node: usize) -> Frame {
    match &schema.nodes[node] {
        Node::Object { .. } => Frame::Object {
            node,
            written: 0,
            opened: false,
        },
        Node::Array { .. } => Frame::Array {
            node,
            count: 0,
            opened: false,
        },
        Node::String { max_len } => Frame::String {
            max_len: *max_len,
            len: None,
            escape: Escape::None,
        },
        Node::Number { .. } => Frame::Number {
            node,
            text: String::new(),
        },
        Node::Literals(texts) => Frame::Literal {
            node,
            allowed: (0..texts.len()).collect(),
            typed: String::new(),
        },
    }
}

fn string_step(c: char, max_len: usize, len: &mut Option<usize>, escape: &mut Escape) -> Step {
    let Some(n) = len else {
        if c != '"' {
            return Step::Refused;
        }
        *len = Some(0);
        return Step::Took;
    };
    match *escape {
        Escape::Backslash => match c {
            'u' => *escape = Escape::Hex(0),
            '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' => {
                *escape = Escape::None;
                *n += 1;
            }
            _ => return Step::Refused,
        },
        Escape::Hex(read) => {
            if !c.is_ascii_hexdigit() {
                return Step::Refused;
            }
            *escape = match read {
                3 => {
                    *n += 1;
                    Escape::None
                }
                _ => Escape::Hex(read + 1),
            };
        }
        Escape::None => match c {
            '"' => return Step::TookLast,
            _ if *n >= max_len => return Step::Refused,
            '\\' => *escape = Escape::Backslash,
            c if c < ' ' => return Step::Refused,
            _ => *n += 1,
        },
    }
    Step::Took
}

/// Whether `text` can begin a number the node allows: JSON's grammar (no fraction or exponent
/// for an integer), at most [`MAX_DIGITS`] digits, no `-` when the minimum is 0 or more.
fn number_prefix_ok(node: &Node, text: &str) -> bool {
    let Node::Number { integer, min, max } = *node else {
        return false;
    };
    let digits = text.chars().filter(char::is_ascii_digit).count();
    if digits > MAX_DIGITS {
        return false;
    }
    let body = match text.strip_prefix('-') {
        Some(_) if min.is_some_and(|m| m >= 0.0) => return false,
        Some(rest) => rest,
        None => text,
    };
    let (int, rest) = body.split_at(body.find(['.', 'e', 'E']).unwrap_or(body.len()));
    if !int.chars().all(|c| c.is_ascii_digit()) || (int.len() > 1 && int.starts_with('0')) {
        return false;
    }
    // Without an exponent, more digits only move a number away from zero: past a bound in
    // that direction, it can never come back.
    if !rest.contains(['e', 'E'])
        && let Ok(x) = text.trim_end_matches('.').parse::<f64>()
        && ((x > 0.0 && max.is_some_and(|m| x > m)) || (x < 0.0 && min.is_some_and(|m| x < m)))
    {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    if integer || int.is_empty() {
        return false;
    }
    let (frac, exp) = match rest.strip_prefix('.') {
        Some(after) => after.split_at(after.find(['e', 'E']).unwrap_or(after.len())),
        None => ("", rest),
    };
    if !frac.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    if exp.is_empty() {
        return true;
    }
    // An exponent could carry a bounded number out of its range for good.
    if (rest.starts_with('.') && frac.is_empty()) || min.is_some() || max.is_some() {
        return false;
    }
    let exp = exp[1..].strip_prefix(['+', '-']).unwrap_or(&exp[1..]);
    exp.chars().all(|c| c.is_ascii_digit())
}

/// Whether `text` is a whole number the node allows (in range).
fn number_is_whole(node: &Node, text: &str) -> bool {
    let Node::Number { min, max, .. } = *node else {
        return false;
    };
    let ends_well = text.ends_with(|c: char| c.is_ascii_digit());
    ends_well
        && number_prefix_ok(node, text)
        && text.parse::<f64>().is_ok_and(|x| in_range(x, min, max))
}
