//! `vai workflow run --step` as a user runs it: in a terminal (a pseudo-terminal made by
//! util-linux `script`), each step is shown with its inputs before it runs and the keys typed go
//! on or cancel; without a terminal, `--step` is refused.

use super::{scratch, text, vai, vai_command};
use crate::terminal::Terminal;

/// Three template steps in a chain; the output is the last one's text.
const FLOW: &str = r#"{"name": "flow", "inputs": {"who": {"type": "string", "default": "world"}},
    "steps": [
      {"id": "greet", "name": "Greet", "tool": "template", "inputs": {"text": "hello {{ inputs.who }}"}},
      {"id": "shout", "name": "Shout", "tool": "template", "inputs": {"text": "{{ greet.output.text }}!"}},
      {"id": "sign", "tool": "template", "inputs": {"text": "{{ shout.output.text }} (signed)"}}
    ],
    "output": "{{ sign.output.text }}"}"#;

fn flow_dir(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("flow.json"), FLOW).unwrap();
    dir
}

/// The prompt that ends each pause.
const PROMPT: &str = "q Enter: cancel › ";

#[test]
fn step_waits_before_each_step_and_enter_and_c_go_on() {
    let dir = flow_dir("step-terminal");
    let Some(mut term) = Terminal::start(
        &vai_command(&dir),
        "workflow run flow.json --step --input who=you",
    ) else {
        return;
    };
    let first = term.wait_for(PROMPT);
    assert!(first.contains("⏸ Greet (greet) · template"), "{first}");
    assert!(first.contains("    text: \"hello you\""), "{first}");
    assert!(first.contains("c Enter: run to the end"), "{first}");
    assert!(!first.contains("✔"), "nothing ran before Enter: {first}");
    term.type_keys(b"\n");
    let second = term.wait_for(PROMPT);
    assert!(second.contains("✔ Greet  "), "{second}");
    // The next step's inputs, resolved from what the first one made.
    assert!(second.contains("⏸ Shout (shout) · template"), "{second}");
    assert!(second.contains("    text: \"hello you!\""), "{second}");
    // Not an answer: asked again.
    term.type_keys(b"x\n");
    term.wait_for("is not an answer: Enter, c or q › ");
    term.type_keys(b"c\n");
    let (code, seen) = term.finish();
    assert_eq!(code, Some(0), "{seen}");
    assert!(seen.contains("✔ Shout  "), "{seen}");
    assert!(seen.contains("✔ sign  "), "{seen}");
    assert!(!seen.contains("⏸ sign"), "c ran to the end: {seen}");
    assert!(seen.contains("hello you! (signed)"), "{seen}");
}

#[test]
fn q_at_a_pause_cancels_the_run_with_130() {
    let dir = flow_dir("step-quit");
    let Some(mut term) =
        Terminal::start(&vai_command(&dir), "workflow run flow.json --break shout")
    else {
        return;
    };
    let paused = term.wait_for(PROMPT);
    // Only the breakpoint pauses.
    assert!(paused.contains("✔ Greet  "), "{paused}");
    assert!(paused.contains("⏸ breakpoint: Shout (shout)"), "{paused}");
    assert!(
        paused.contains("c Enter: continue to the next breakpoint"),
        "{paused}"
    );
    term.type_keys(b"q\n");
    let (code, seen) = term.finish();
    assert_eq!(code, Some(130), "{seen}");
    assert!(seen.contains("■ Shout  cancelled"), "{seen}");
    assert!(seen.contains("cancelled after"), "{seen}");
    assert!(!seen.contains("(signed)"), "{seen}");
}

#[test]
fn ctrl_c_at_a_pause_cancels_the_run_with_130() {
    let dir = flow_dir("step-ctrl-c");
    let Some(mut term) = Terminal::start(
        &vai_command(&dir),
        "workflow run flow.json --step --pace 50",
    ) else {
        return;
    };
    term.wait_for(PROMPT);
    term.type_keys(b"\n");
    term.wait_for("⏸ Shout");
    term.wait_for(PROMPT);
    term.type_keys(b"\x03");
    let (code, seen) = term.finish();
    assert_eq!(code, Some(130), "{seen}");
    assert!(seen.contains("interrupted: cancelling the run"), "{seen}");
}

#[test]
fn step_needs_a_terminal_and_break_a_known_step() {
    let dir = flow_dir("step-no-terminal");
    // The test harness gives the command no terminal on stdin.
    let out = vai(&["workflow", "run", "flow.json", "--step"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: --step needs a terminal (stdin is not one)"
    );
    let out = vai(&["workflow", "run", "flow.json", "--pace", "10001"], &dir);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // A pace alone needs no terminal.
    let out = vai(&["workflow", "run", "flow.json", "--pace", "30"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "hello world! (signed)");

    let Some(mut term) = Terminal::start(&vai_command(&dir), "workflow run flow.json --break nope")
    else {
        return;
    };
    term.wait_for("error: --break: the workflow has no step \"nope\"");
    let (code, _) = term.finish();
    assert_eq!(code, Some(2));
}
