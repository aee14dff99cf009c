//! Hostile workflows meet the engine's limits: each fails its step with exit 1 and a message
//! naming the step, the field and the limit, where the process used to abort (exit 134) on a
//! stack overflow or a failed allocation of gigabytes.

use super::{scratch, text, vai};
use serde_json::{Value, json};
use std::path::Path;

/// `depth` arrays around `inner`, built without recursion.
fn nested(depth: usize, inner: Value) -> Value {
    (0..depth).fold(inner, |v, _| Value::Array(vec![v]))
}

fn write_json(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_string(value).unwrap()).unwrap();
}

/// The run failed cleanly (exit 1) at `step`, and stderr says so with `message`.
fn assert_step_limit(out: &std::process::Output, step: &str, message: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("step \"{step}\" failed: {message}")),
        "{stderr}"
    );
    assert!(stderr.contains("[LIMIT_EXCEEDED]"), "{stderr}");
}

#[test]
fn a_chain_of_deep_wrappers_fails_its_step_instead_of_overflowing_the_stack() {
    // The file: 80 transform steps, each wrapping the previous output in a 118-deep
    // array literal (about 26 KB). Before the nesting bound it aborted with exit 134.
    let dir = scratch("deep-chain");
    let mut steps = vec![
        json!({"id": "s0", "tool": "transform", "inputs": {"array": nested(118, json!("{{ inputs.x }}"))}}),
    ];
    for i in 1..80 {
        let wrapped = nested(118, json!(format!("{{{{ s{}.output }}}}", i - 1)));
        steps.push(
            json!({"id": format!("s{i}"), "tool": "transform", "inputs": {"array": wrapped}}),
        );
    }
    let wf = json!({"name": "deep chain", "inputs": {"x": {"type": "string", "default": "x"}},
                    "steps": steps, "output": "{{ s79.output.resultCount }}"});
    write_json(&dir.join("deep.vai-workflow.json"), &wf);
    assert!(
        std::fs::metadata(dir.join("deep.vai-workflow.json"))
            .unwrap()
            .len()
            > 20_000
    );
    let out = vai(&["workflow", "run", "deep.vai-workflow.json"], &dir);
    // s0's output nests 119 levels; wrapping it in 118 more cannot be made.
    assert_step_limit(
        &out,
        "s1",
        "inputs.array: the value would nest deeper than 128 levels",
    );
}

#[test]
fn a_chunk_step_whose_overlap_multiplies_its_input_fails_cleanly() {
    // size 50,000 and overlap 49,999 over 100 KB: about 2.5 GB of chunks.
    let dir = scratch("chunk-bomb");
    let wf = json!({"name": "chunk bomb", "inputs": {"text": {"type": "string", "required": true}},
                    "steps": [{"id": "split", "tool": "chunk", "inputs": {
                        "text": "{{ inputs.text }}", "strategy": "fixed", "size": 50_000, "overlap": 49_999}}],
                    "output": "{{ split.output.totalChunks }}"});
    write_json(&dir.join("chunk.vai-workflow.json"), &wf);
    write_json(
        &dir.join("inputs.json"),
        &json!({"text": "lorem ipsum ".repeat(8_400)}),
    );
    let out = vai(
        &[
            "workflow",
            "run",
            "chunk.vai-workflow.json",
            "--inputs-file",
            "inputs.json",
        ],
        &dir,
    );
    assert_step_limit(
        &out,
        "split",
        "output.chunks: the step's output would be larger than 64 MiB (limits.stepOutputBytes in .vai.json)",
    );
}

#[test]
fn a_template_repeating_a_large_input_fails_cleanly() {
    // 50,000 × a 40 KB input: 2 GB of text.
    let dir = scratch("template-bomb");
    let wf = json!({"name": "template bomb", "inputs": {"x": {"type": "string", "required": true}},
                    "steps": [{"id": "render", "tool": "template", "inputs": {"text": "{{inputs.x}}".repeat(50_000)}}],
                    "output": "{{ render.output.charCount }}"});
    write_json(&dir.join("template.vai-workflow.json"), &wf);
    write_json(&dir.join("inputs.json"), &json!({"x": "y".repeat(40_000)}));
    let out = vai(
        &[
            "workflow",
            "run",
            "template.vai-workflow.json",
            "--inputs-file",
            "inputs.json",
        ],
        &dir,
    );
    assert_step_limit(
        &out,
        "render",
        "inputs.text: the value would be larger than 16 MiB (limits.valueBytes in .vai.json)",
    );
}

#[test]
fn limits_in_the_project_file_change_the_budgets() {
    let dir = scratch("project-limits");
    let wf = json!({"name": "echo", "inputs": {"x": {"type": "string", "required": true}},
                    "steps": [{"id": "render", "tool": "template", "inputs": {"text": "{{ inputs.x }}!{{ inputs.x }}"}}],
                    "output": "{{ render.output.charCount }}"});
    write_json(&dir.join("echo.vai-workflow.json"), &wf);
    let x = format!("x={}", "y".repeat(3_000));
    let run = |dir: &Path| {
        vai(
            &["workflow", "run", "echo.vai-workflow.json", "-i", &x],
            dir,
        )
    };
    let out = run(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "6001");

    write_json(
        &dir.join(".vai.json"),
        &json!({"limits": {"valueBytes": 4096}}),
    );
    assert_step_limit(
        &run(&dir),
        "render",
        "inputs.text: the value would be larger than 4096 bytes (limits.valueBytes in .vai.json)",
    );

    write_json(
        &dir.join(".vai.json"),
        &json!({"limits": {"valueBytes": 0}}),
    );
    let out = run(&dir);
    let stderr = text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(".vai.json: not a valid project file: limits.valueBytes is 0"),
        "{stderr}"
    );
}
