//! `vai workflow run --step` as a user runs it: in a terminal (a pseudo-terminal made by
//! util-linux `script`), each step is shown with its inputs before it runs and the keys typed go
//! on or cancel; without a terminal, `--step` is refused.

use super::{scratch, text, vai};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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

/// `vai args…` in a pseudo-terminal: what it writes, as the screen shows it, and the keys typed.
struct Terminal {
    child: Child,
    keys: ChildStdin,
    screen: Arc<Mutex<String>>,
    reader: Option<JoinHandle<()>>,
    /// How far the screen has been read by `wait_for`.
    at: usize,
}

impl Terminal {
    /// `None` (after saying so) when there is no `script` to make a pseudo-terminal with.
    fn start(args: &str, dir: &Path) -> Option<Terminal> {
        let has_script = Command::new("script")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !has_script {
            eprintln!("skipping: no `script` (util-linux) to make a pseudo-terminal");
            return None;
        }
        let program = env!("CARGO_BIN_EXE_vai");
        let mut child = Command::new("script")
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env(
                "VAI_DATA_DIR",
                std::env::temp_dir().join(format!("vai-cli-{}-data", std::process::id())),
            )
            .env_remove("VAI_DEFAULT_DB")
            .env_remove("VAI_DEFAULT_COLLECTION")
            .args(["-qfec", &format!("{program} {args}"), "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start script");
        let keys = child.stdin.take().unwrap();
        let screen = Arc::new(Mutex::new(String::new()));
        let reader = {
            let screen = screen.clone();
            let mut stdout = child.stdout.take().unwrap();
            std::thread::spawn(move || {
                let mut buffer = [0u8; 4096];
                while let Ok(n) = stdout.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    screen
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buffer[..n]));
                }
            })
        };
        Some(Terminal {
            child,
            keys,
            screen,
            reader: Some(reader),
            at: 0,
        })
    }

    /// Wait until `needle` shows after what was read so far; the screen from there on.
    fn wait_for(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let seen = self.screen.lock().unwrap().clone();
            if let Some(at) = seen[self.at.min(seen.len())..].find(needle) {
                let from = self.at;
                self.at += at + needle.len();
                return seen[from..self.at].to_string();
            }
            assert!(
                Instant::now() < deadline,
                "no {needle:?} on the screen:\n{seen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &[u8]) {
        self.keys.write_all(keys).unwrap();
        self.keys.flush().unwrap();
    }

    /// The exit status and the whole screen.
    fn finish(mut self) -> (Option<i32>, String) {
        let status = self.child.wait().unwrap();
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        let seen = self.screen.lock().unwrap().clone();
        (status.code(), seen)
    }
}

/// The prompt that ends each pause.
const PROMPT: &str = "q Enter: cancel › ";

#[test]
fn step_waits_before_each_step_and_enter_and_c_go_on() {
    let dir = flow_dir("step-terminal");
    let Some(mut term) = Terminal::start("workflow run flow.json --step --input who=you", &dir)
    else {
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
    let Some(mut term) = Terminal::start("workflow run flow.json --break shout", &dir) else {
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
    let Some(mut term) = Terminal::start("workflow run flow.json --step --pace 50", &dir) else {
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

    let Some(mut term) = Terminal::start("workflow run flow.json --break nope", &dir) else {
        return;
    };
    term.wait_for("error: --break: the workflow has no step \"nope\"");
    let (code, _) = term.finish();
    assert_eq!(code, Some(2));
}
