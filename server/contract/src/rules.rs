//! `web/src/api/rules.ts`: the file format's rules the builder checks as the engine does
//! (`vai_workflow::rules`), written out as TypeScript constants. A test fails when the committed
//! file drifts (`VAI_UPDATE_GENERATED=1 cargo test -p vai-contract`).

use serde_json::json;
use std::fmt::Write as _;
use vai_workflow::rules::{self, NumberRule};

/// The TypeScript module `web/src/api/rules.ts` holds.
pub fn typescript() -> String {
    let mut out = String::from(
        "// generated — do not edit; VAI_UPDATE_GENERATED=1 cargo test -p vai-contract\n\
         // The file format's rules, as the engine applies them (server/workflow/src/rules.rs).\n",
    );
    let text = |s: &str| json!(s).to_string();
    let strings = |list: &[&str]| json!(list).to_string();

    out.push_str(
        "\n/** A number a step setting takes: its bounds (both included) and the engine's default \
         when it is left out. */\n\
         export interface NumberRule {\n  key: string\n  integer: boolean\n  minimum: number\n  \
         maximum: number\n  default?: number\n}\n",
    );
    let _ = writeln!(
        out,
        "\n/** Step ids and input names: ASCII letters, digits and _, not starting with a digit. */\n\
         export const STEP_ID_PATTERN = /{}/",
        rules::STEP_ID_PATTERN
    );
    let _ = writeln!(
        out,
        "\n/** Names a step id may not take: they are scope roots or literals. */\n\
         export const RESERVED_IDS: readonly string[] = {}",
        strings(rules::RESERVED_IDS)
    );
    let _ = writeln!(
        out,
        "\n/** The canvas node of the workflow's inputs (also its key in `ui.positions`). */\n\
         export const INPUTS_NODE = {}",
        text(rules::INPUTS_NODE)
    );
    let _ = writeln!(
        out,
        "\n/** The canvas node of the workflow's output (also its key in `ui.positions`). */\n\
         export const OUTPUT_NODE = {}",
        text(rules::OUTPUT_NODE)
    );
    let _ = writeln!(
        out,
        "\n/** The id of the canvas edge that carries `field` of `target` from `source`. */\n\
         export function edgeId(source: string, target: string, field: string): string {{\n  \
         return `{}`\n}}",
        rules::edge_id("${source}", "${target}", "${field}")
    );
    let _ = writeln!(
        out,
        "\n/** How many `forEach` iterations run at once. */\n\
         export const FOR_EACH_CONCURRENCY: NumberRule = {}",
        rule(rules::FOR_EACH_CONCURRENCY)
    );
    let _ = writeln!(
        out,
        "\n/** Time limit of one attempt, in milliseconds. */\n\
         export const TIMEOUT_MS: NumberRule = {}",
        rule(rules::TIMEOUT_MS)
    );
    let retry: Vec<String> = rules::RETRY.into_iter().map(rule).collect();
    let _ = writeln!(
        out,
        "\n/** The keys of a step's `retry` object, in the order a form shows them. */\n\
         export const RETRY: readonly NumberRule[] = [{}]",
        retry.join(", ")
    );
    out
}

fn rule(r: NumberRule) -> String {
    // Whole numbers as JavaScript writes them (`16`, not `16.0`).
    let number = |n: f64| {
        if n.fract() == 0.0 {
            json!(n as i64)
        } else {
            json!(n)
        }
    };
    let mut value = json!({
        "key": r.key,
        "integer": r.integer,
        "minimum": number(r.minimum),
        "maximum": number(r.maximum),
    });
    if let Some(d) = r.default {
        value["default"] = number(d);
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_the_engine() {
        crate::assert_generated("web/src/api/rules.ts", &typescript());
    }

    #[test]
    fn numbers_are_written_as_javascript_does() {
        assert_eq!(
            rule(rules::RETRY_BACKOFF_RATE),
            r#"{"key":"backoffRate","integer":false,"minimum":1,"maximum":10,"default":2}"#
        );
    }
}
