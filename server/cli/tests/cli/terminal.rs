//! `vai` in a pseudo-terminal made by util-linux `script`, as a person at a terminal runs it: what
//! it writes, as the screen shows it, and the keys typed. Shared by the tests of the interactive
//! commands (`vai chat`, `vai workflow run --step`).

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long `wait_for` waits for its text.
const WAIT: Duration = Duration::from_secs(120);

pub(crate) struct Terminal {
    child: Child,
    keys: ChildStdin,
    screen: Arc<Mutex<String>>,
    reader: Option<JoinHandle<()>>,
    /// How far the screen has been read by `wait_for`.
    at: usize,
}

impl Terminal {
    /// `vai args` with the program, environment and directory of `vai`; `None` (after saying
    /// so) when there is no `script` to make a pseudo-terminal with.
    pub(crate) fn start(vai: &Command, args: &str) -> Option<Terminal> {
        let has_script = Command::new("script")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !has_script {
            eprintln!("skipping: no `script` (util-linux) to make a pseudo-terminal");
            return None;
        }
        let mut command = Command::new("script");
        for (name, value) in vai.get_envs() {
            match value {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        if let Some(dir) = vai.get_current_dir() {
            command.current_dir(dir);
        }
        let program = vai.get_program().to_string_lossy().into_owned();
        let mut child = command
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
    pub(crate) fn wait_for(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + WAIT;
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

    pub(crate) fn type_keys(&mut self, keys: &[u8]) {
        self.keys.write_all(keys).unwrap();
        self.keys.flush().unwrap();
    }

    /// The exit status and the whole screen.
    pub(crate) fn finish(mut self) -> (Option<i32>, String) {
        let status = self.child.wait().unwrap();
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        let seen = self.screen.lock().unwrap().clone();
        (status.code(), seen)
    }
}
