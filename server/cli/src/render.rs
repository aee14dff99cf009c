//! Terminal rendering: live progress lines on stderr and the run's output on stdout.

pub(crate) mod usage;

pub(crate) use usage::{cost, estimate as estimate_cost, finished};

use serde_json::Value;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use vai_workflow::{RunEvent, events::EventSink, model::Formatters, value};

/// Prints one line per step event to stderr.
pub(crate) struct Progress {
    names: HashMap<String, String>,
    verbose: bool,
    colour: bool,
}

impl Progress {
    pub(crate) fn new(names: HashMap<String, String>, verbose: bool) -> Self {
        Self {
            names,
            verbose,
            colour: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }

    fn name<'a>(&'a self, id: &'a str) -> &'a str {
        self.names.get(id).map_or(id, String::as_str)
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

impl EventSink for Progress {
    fn emit(&self, event: RunEvent) {
        let line = match &event {
            RunEvent::StepStarted { step_id, tool, .. } if self.verbose => Some(format!(
                "{} {}  ({tool})",
                self.paint("2", "…"),
                self.name(step_id)
            )),
            RunEvent::StepCompleted {
                step_id,
                duration_ms,
                summary,
                backend,
                usage,
                entry,
                ..
            } => {
                let via = backend
                    .iter()
                    .cloned()
                    .chain(usage.as_ref().and_then(usage::usage))
                    .map(|part| format!(" · {part}"))
                    .collect::<String>();
                let mut line = format!(
                    "{} {}  {summary}  {}",
                    self.paint("32", "✔"),
                    self.name(step_id),
                    self.paint("2", &format!("[{duration_ms}ms{via}]"))
                );
                if self.verbose {
                    let output = entry.get("output").cloned().unwrap_or(Value::Null);
                    let pretty = serde_json::to_string_pretty(&output).unwrap_or_default();
                    line.push('\n');
                    line.push_str(&indent(&value::truncate_chars(&pretty, 4000), "    "));
                }
                Some(line)
            }
            RunEvent::StepSkipped { step_id, reason } => Some(format!(
                "{} {}  skipped: {reason}",
                self.paint("33", "⊘"),
                self.name(step_id)
            )),
            RunEvent::StepFailed {
                step_id,
                error,
                continued,
                ..
            } => {
                let cont = if *continued {
                    "  (continueOnError: going on)"
                } else {
                    ""
                };
                Some(format!(
                    "{} {}  {error}{cont}",
                    self.paint("31", "✗"),
                    self.name(step_id)
                ))
            }
            RunEvent::StepRetrying {
                step_id,
                attempt,
                error,
                delay_ms,
            } => Some(format!(
                "{} {}  {error}; retrying in {delay_ms}ms (attempt {} failed)",
                self.paint("33", "↻"),
                self.name(step_id),
                attempt
            )),
            RunEvent::StepCancelled { step_id } => Some(format!(
                "{} {}  cancelled",
                self.paint("2", "■"),
                self.name(step_id)
            )),
            _ => None,
        };
        if let Some(line) = line {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
    }
}

/// Most inputs a pause lists, and the longest value shown for each.
const PAUSE_INPUTS: usize = 8;
const PAUSE_VALUE_CHARS: usize = 70;

/// What `vai workflow run --step` shows before a step: its name, id and tool, the inputs it will
/// get in short, and the keys that go on. Ends at the prompt, without a line break.
pub(crate) fn pause(
    name: &str,
    step_id: &str,
    tool: &str,
    breakpoint: bool,
    inputs: Option<&Value>,
    go_on: &str,
) -> String {
    let at = if breakpoint { "breakpoint: " } else { "" };
    let title = if name == step_id {
        step_id.to_string()
    } else {
        format!("{name} ({step_id})")
    };
    let mut lines = vec![format!("⏸ {at}{title} · {tool}")];
    let short = |v: &Value| value::truncate_chars(&v.to_string(), PAUSE_VALUE_CHARS);
    let fields = |inputs: &serde_json::Map<String, Value>, lines: &mut Vec<String>| {
        for (k, v) in inputs.iter().take(PAUSE_INPUTS) {
            lines.push(format!("    {k}: {}", short(v)));
        }
        if inputs.len() > PAUSE_INPUTS {
            lines.push(format!("    … and {} more", inputs.len() - PAUSE_INPUTS));
        }
    };
    match inputs {
        Some(Value::Object(inputs)) => fields(inputs, &mut lines),
        // A forEach step: one set of inputs per element.
        Some(Value::Array(calls)) => {
            lines.push(format!(
                "    {} call{} (forEach){}",
                calls.len(),
                if calls.len() == 1 { "" } else { "s" },
                if calls.is_empty() {
                    ""
                } else {
                    "; the first gets:"
                }
            ));
            if let Some(Value::Object(first)) = calls.first() {
                fields(first, &mut lines);
            }
        }
        Some(other) => lines.push(format!("    {}", value::to_text(Some(other)))),
        None => lines.push("    (its inputs do not resolve yet: running it will say why)".into()),
    }
    lines.push(format!(
        "  Enter: run it · c Enter: {go_on} · q Enter: cancel › "
    ));
    lines.join("\n")
}

fn indent(text: &str, prefix: &str) -> String {
    text.lines()
        .map(|l| format!("{prefix}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Render a run's output for stdout, following the workflow's `formatters` when it has them.
pub(crate) fn output(output: &Value, formatters: Option<&Formatters>) -> String {
    let format = formatters
        .and_then(|f| f.default.as_deref())
        .unwrap_or("auto");
    let title = formatters.and_then(|f| f.title.as_deref());
    let columns = formatters.and_then(|f| f.columns.as_ref());
    let rows = || table_rows(output, formatters.and_then(|f| f.array_field.as_deref()));
    let body = match format {
        "table" | "markdown" | "csv" => match rows() {
            Some(rows) => {
                let cols = columns.cloned().unwrap_or_else(|| infer_columns(rows));
                match format {
                    "table" => with_notes(text_table(rows, &cols), output),
                    "markdown" => with_notes(markdown_table(rows, &cols), output),
                    _ => csv(rows, &cols),
                }
            }
            None => pretty(output),
        },
        "text" => text(output),
        "json" => pretty(output),
        _ => match output {
            Value::String(s) => s.clone(),
            other => pretty(other),
        },
    };
    match title {
        Some(t) if format == "table" || format == "markdown" || format == "text" => {
            format!("{t}\n\n{body}")
        }
        _ => body,
    }
}

/// `table` followed by the output's other fields that are non-empty text (a note the workflow
/// adds, such as why every row is the same), one per line: a table shows only its rows.
fn with_notes(table: String, output: &Value) -> String {
    let notes: Vec<String> = output
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(key, value)| match value {
            Value::String(s) if !s.trim().is_empty() => Some(format!("{key}: {s}")),
            _ => None,
        })
        .collect();
    if notes.is_empty() {
        return table;
    }
    format!("{table}\n\n{}", notes.join("\n"))
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}: {s}"),
                other => format!("{k}: {}", value::to_text(Some(other))),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => value::to_text(Some(other)),
    }
}

fn table_rows<'a>(output: &'a Value, field: Option<&str>) -> Option<&'a Vec<Value>> {
    match (output, field) {
        (Value::Array(a), _) => Some(a),
        (Value::Object(o), Some(f)) => o.get(f)?.as_array(),
        (Value::Object(o), None) => o.values().find_map(Value::as_array),
        _ => None,
    }
}

fn infer_columns(rows: &[Value]) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for row in rows.iter().take(20) {
        if let Value::Object(o) = row {
            for (k, v) in o {
                if !v.is_object() && !v.is_array() && !cols.contains(k) {
                    cols.push(k.clone());
                }
            }
        }
    }
    if cols.is_empty() {
        vec!["value".to_string()]
    } else {
        cols
    }
}

fn cell(row: &Value, col: &str) -> String {
    let v = match row {
        Value::Object(o) => o.get(col),
        other if col == "value" => Some(other),
        _ => None,
    };
    value::truncate_chars(&value::to_text(v).replace('\n', " "), 60)
}

fn text_table(rows: &[Value], cols: &[String]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| cols.iter().map(|c| cell(r, c)).collect())
        .collect();
    let widths: Vec<usize> = cols
        .iter()
        .enumerate()
        .map(|(i, c)| {
            cells
                .iter()
                .map(|r| r[i].chars().count())
                .chain([c.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |vals: &[String]| {
        vals.iter()
            .zip(&widths)
            .map(|(v, w)| format!("{v:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = vec![
        line(cols),
        widths
            .iter()
            .map(|w| "─".repeat(*w))
            .collect::<Vec<_>>()
            .join("  "),
    ];
    out.extend(cells.iter().map(|r| line(r)));
    out.join("\n")
}

fn markdown_table(rows: &[Value], cols: &[String]) -> String {
    let mut out = vec![
        format!("| {} |", cols.join(" | ")),
        format!("|{}|", vec!["---"; cols.len()].join("|")),
    ];
    for r in rows {
        let vals: Vec<String> = cols
            .iter()
            .map(|c| cell(r, c).replace('|', "\\|"))
            .collect();
        out.push(format!("| {} |", vals.join(" | ")));
    }
    out.join("\n")
}

fn csv(rows: &[Value], cols: &[String]) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = vec![cols.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",")];
    for r in rows {
        let vals: Vec<String> = cols
            .iter()
            .map(|c| {
                let v = match r {
                    Value::Object(o) => o.get(c.as_str()),
                    _ => None,
                };
                quote(&value::to_text(v))
            })
            .collect();
        out.push(vals.join(","));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_print_raw_and_objects_as_json() {
        assert_eq!(output(&json!("hello"), None), "hello");
        assert_eq!(output(&json!({"a": 1}), None), "{\n  \"a\": 1\n}");
    }

    #[test]
    fn tables_follow_formatters() {
        let f = Formatters {
            default: Some("table".into()),
            title: None,
            columns: Some(vec!["model".into(), "cost".into()]),
            array_field: Some("rows".into()),
            extra: Default::default(),
        };
        let out = output(
            &json!({"rows": [{"model": "a", "cost": 1.5}, {"model": "bb", "cost": 2}]}),
            Some(&f),
        );
        assert_eq!(out, "model  cost\n─────  ────\na      1.5\nbb     2");
        // Text beside the rows is printed under the table; empty text and numbers are not.
        let out = output(
            &json!({"rows": [{"model": "a", "cost": 1}], "note": "all local", "empty": " ", "n": 2}),
            Some(&f),
        );
        assert_eq!(out, "model  cost\n─────  ────\na      1\n\nnote: all local");
    }

    #[test]
    fn a_pause_shows_the_step_and_its_inputs_in_short() {
        let inputs = json!({"text": "x".repeat(100), "n": 2});
        let shown = pause(
            "Say",
            "say",
            "template",
            false,
            Some(&inputs),
            "run to the end",
        );
        assert_eq!(
            shown,
            format!(
                "⏸ Say (say) · template\n    text: \"{}…\n    n: 2\n  Enter: run it · c Enter: run to the end · q Enter: cancel › ",
                "x".repeat(69)
            )
        );
        let each = json!([{"x": 1}, {"x": 2}]);
        let shown = pause("e", "e", "echo", true, Some(&each), "continue");
        assert!(
            shown.starts_with(
                "⏸ breakpoint: e · echo\n    2 calls (forEach); the first gets:\n    x: 1\n"
            ),
            "{shown}"
        );
    }

    #[test]
    fn csv_quotes() {
        let f = Formatters {
            default: Some("csv".into()),
            title: None,
            columns: None,
            array_field: None,
            extra: Default::default(),
        };
        assert_eq!(
            output(&json!([{"a": "x,y", "b": 1}]), Some(&f)),
            "a,b\n\"x,y\",1"
        );
    }
}
