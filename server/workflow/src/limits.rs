//! Bounds on the values a run makes, so that a workflow someone else wrote cannot exhaust the
//! stack or the memory: a value nests at most [`MAX_DEPTH`] arrays and objects (what parsing
//! accepts), and bytes are charged to a [`Budget`] *while* a value is built — one resolved
//! template value, one step's output, one run's outputs ([`Limits`]) — so an oversized value is
//! refused before it is allocated rather than measured afterwards.
//!
//! Sizes are JSON sizes: what the value's compact JSON text takes, except that a string counts
//! its UTF-8 bytes plus two quotes (an escaped character counts once, as it is held in memory).
//! They are computed from the value's structure, never by serialising it; a float's length comes
//! from a counting writer.
//!
//! Every walk here recurses at most [`MAX_DEPTH`] levels, whatever the value holds: a deeper
//! value is refused at the level that exceeds the bound, not after walking it.

use serde_json::{Number, Value};
use std::fmt;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

/// Deepest nesting of arrays and objects a value made at run time may have. Parsing already
/// refuses deeper JSON, so files and inputs fit; copying, serialising, comparing and dropping a
/// value recurse once per level, so this also bounds their stack use.
pub const MAX_DEPTH: usize = 128;

const MIB: u64 = 1 << 20;

/// The byte budgets of a run (`limits` in `.vai.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// One value a template makes: a step's resolved inputs, one evaluation of a per-item
    /// template or condition, text interpolated or concatenated with `+`.
    pub value_bytes: u64,
    /// One step's output (a `forEach` or `loop` counts every iteration's output), and the run's
    /// output mapping.
    pub step_output_bytes: u64,
    /// Every step output of one run together.
    pub run_bytes: u64,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        value_bytes: 16 * MIB,
        step_output_bytes: 64 * MIB,
        run_bytes: 256 * MIB,
    };

    /// A fresh budget for one resolved value.
    pub fn value_budget(&self) -> Budget {
        Budget::new(Limit::ValueBytes(self.value_bytes))
    }

    /// A fresh budget for one step output.
    pub fn step_budget(&self) -> Budget {
        Budget::new(Limit::StepOutputBytes(self.step_output_bytes))
    }

    /// A fresh budget for one run's outputs.
    pub fn run_budget(&self) -> Budget {
        Budget::new(Limit::RunBytes(self.run_bytes))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The bound a value ran into, with its size in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Depth,
    ValueBytes(u64),
    StepOutputBytes(u64),
    RunBytes(u64),
}

impl Limit {
    fn bytes(self) -> u64 {
        match self {
            Limit::Depth => u64::MAX,
            Limit::ValueBytes(n) | Limit::StepOutputBytes(n) | Limit::RunBytes(n) => n,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Limit::Depth => write!(
                f,
                "the value would nest deeper than {MAX_DEPTH} levels of arrays and objects"
            ),
            Limit::ValueBytes(n) => write!(
                f,
                "the value would be larger than {} (limits.valueBytes in .vai.json)",
                human(n)
            ),
            Limit::StepOutputBytes(n) => write!(
                f,
                "the step's output would be larger than {} (limits.stepOutputBytes in .vai.json)",
                human(n)
            ),
            Limit::RunBytes(n) => write!(
                f,
                "the run's step outputs would together be larger than {} (limits.runBytes in .vai.json)",
                human(n)
            ),
        }
    }
}

/// `16 MiB` for whole mebibytes, else the byte count.
fn human(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// A limit hit while making the value of `field` (`inputs.text`, `output`, `condition`, …).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{field}: {limit} [{}]",
    crate::diagnostic::DiagnosticCode::LimitExceeded
)]
pub struct LimitError {
    pub field: String,
    pub limit: Limit,
}

impl LimitError {
    pub fn new(field: impl Into<String>, limit: Limit) -> Self {
        Self {
            field: field.into(),
            limit,
        }
    }
}

/// Bytes that may still be built for one value, step output or run. Shared by reference (the
/// iterations of a `forEach` charge one budget concurrently); charging past the limit fails and
/// leaves the budget spent.
#[derive(Debug)]
pub struct Budget {
    limit: Limit,
    used: AtomicU64,
}

impl Budget {
    pub fn new(limit: Limit) -> Self {
        Self {
            limit,
            used: AtomicU64::new(0),
        }
    }

    /// The bound this budget enforces.
    pub fn limit(&self) -> Limit {
        self.limit
    }

    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    pub fn remaining(&self) -> u64 {
        self.limit.bytes().saturating_sub(self.used())
    }

    /// Account for `bytes` about to be built.
    pub fn charge(&self, bytes: u64) -> Result<(), Limit> {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit.bytes() {
            return Err(self.limit);
        }
        Ok(())
    }

    /// A copy of `value`, which will sit `depth` levels deep in the value being built, charged
    /// to this budget. Refused, before the part that does not fit is copied, when it is too
    /// large or would nest deeper than [`MAX_DEPTH`].
    pub fn copy(&self, value: &Value, depth: usize) -> Result<Value, Limit> {
        // Measured first, then cloned: `Value::clone` copies maps without hashing their keys
        // again, and the walk has already checked that the clone's recursion is bounded.
        self.measure(value, depth)?;
        Ok(value.clone())
    }

    /// Copies of `values`, each sitting `depth` levels deep, measured together and charged once
    /// before any is copied.
    pub fn copy_all(&self, values: &[&Value], depth: usize) -> Result<Vec<Value>, Limit> {
        let mut meter = Meter::new(self.limit, self.remaining());
        for value in values {
            meter.measure(value, depth)?;
        }
        self.charge(meter.used)?;
        Ok(values.iter().map(|v| (*v).clone()).collect())
    }

    /// The size of `value`, sitting `depth` levels deep, charged to this budget; refused as soon
    /// as the walk finds it too large or too deep.
    pub fn measure(&self, value: &Value, depth: usize) -> Result<u64, Limit> {
        let mut meter = Meter::new(self.limit, self.remaining());
        meter.measure(value, depth)?;
        self.charge(meter.used)?;
        Ok(meter.used)
    }

    /// Append `value` to `out` as interpolation prints it (`value::to_text`: undefined → "",
    /// arrays and objects as compact JSON), charging what is appended.
    pub fn push_text(&self, out: &mut String, value: Option<&Value>) -> Result<(), Limit> {
        match value {
            None => Ok(()),
            Some(Value::String(s)) => self.push_str(out, s),
            Some(Value::Number(n)) => self.push_str(out, &crate::value::number_text(n)),
            Some(v @ (Value::Null | Value::Bool(_))) => self.push_str(out, &v.to_string()),
            Some(v) => {
                let mut writer = Capped {
                    buf: Vec::new(),
                    max: self.remaining(),
                };
                serde_json::to_writer(&mut writer, v).map_err(|_| self.limit)?;
                self.charge(writer.buf.len() as u64)?;
                // serde_json writes UTF-8.
                out.push_str(&String::from_utf8_lossy(&writer.buf));
                Ok(())
            }
        }
    }

    /// Append `text` to `out`, charging it first.
    pub fn push_str(&self, out: &mut String, text: &str) -> Result<(), Limit> {
        self.charge(text.len() as u64)?;
        out.push_str(text);
        Ok(())
    }
}

/// The JSON size of `value` sitting `depth` levels deep, or the limit it breaks (`max` bytes
/// reported as `limit`). Walks at most up to [`MAX_DEPTH`] and stops as soon as it is over.
pub fn measure(value: &Value, depth: usize, limit: Limit) -> Result<u64, Limit> {
    let mut meter = Meter::new(limit, limit.bytes());
    meter.measure(value, depth)?;
    Ok(meter.used)
}

/// A byte count with a ceiling, for one walk.
struct Meter {
    limit: Limit,
    max: u64,
    used: u64,
}

impl Meter {
    fn new(limit: Limit, max: u64) -> Self {
        Self {
            limit,
            max,
            used: 0,
        }
    }

    fn add(&mut self, bytes: u64) -> Result<(), Limit> {
        self.used = self.used.saturating_add(bytes);
        if self.used > self.max {
            return Err(self.limit);
        }
        Ok(())
    }

    /// Entering an array or object at `depth` (the value itself at 0).
    fn enter(depth: usize) -> Result<usize, Limit> {
        if depth >= MAX_DEPTH {
            return Err(Limit::Depth);
        }
        Ok(depth + 1)
    }

    /// Add `value`'s size. Scalars inside a container are summed in the container's loop and
    /// the ceiling is checked once per container: this walk runs over every value a tool copies,
    /// so it is kept to a few instructions per member.
    fn measure(&mut self, value: &Value, depth: usize) -> Result<(), Limit> {
        let bytes = match value {
            Value::Array(items) => {
                let inner = Self::enter(depth)?;
                let mut bytes = 1 + items.len().max(1) as u64;
                for item in items {
                    bytes += match item {
                        Value::Array(_) | Value::Object(_) => {
                            self.measure(item, inner)?;
                            0
                        }
                        scalar => scalar_size(scalar),
                    };
                }
                bytes
            }
            Value::Object(map) => {
                let inner = Self::enter(depth)?;
                let mut bytes = 1 + map.len().max(1) as u64;
                for (key, item) in map {
                    bytes += key.len() as u64 + 3;
                    bytes += match item {
                        Value::Array(_) | Value::Object(_) => {
                            self.measure(item, inner)?;
                            0
                        }
                        scalar => scalar_size(scalar),
                    };
                }
                bytes
            }
            scalar => scalar_size(scalar),
        };
        self.add(bytes)
    }
}

/// JSON size of a scalar (arrays and objects count as their brackets only).
#[inline]
fn scalar_size(value: &Value) -> u64 {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => number_size(n),
        Value::String(s) => s.len() as u64 + 2,
        Value::Array(_) | Value::Object(_) => 2,
    }
}

#[inline]
fn number_size(n: &Number) -> u64 {
    if let Some(u) = n.as_u64() {
        digits(u)
    } else if let Some(i) = n.as_i64() {
        1 + digits(i.unsigned_abs())
    } else {
        let mut counter = Counter(0);
        // Writing to a counter cannot fail.
        let _ = serde_json::to_writer(&mut counter, n);
        counter.0
    }
}

/// Decimal digits of `u`; small numbers, the common case, without a logarithm.
#[inline]
fn digits(u: u64) -> u64 {
    match u {
        0..10 => 1,
        10..100 => 2,
        100..1000 => 3,
        _ => u64::from(u.ilog10()) + 1,
    }
}

/// An `io::Write` that only counts.
struct Counter(u64);

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An `io::Write` into a buffer that fails rather than grow past `max` bytes.
struct Capped {
    buf: Vec<u8>,
    max: u64,
}

impl io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if (self.buf.len() + buf.len()) as u64 > self.max {
            return Err(io::Error::other("over budget"));
        }
        self.buf.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
