//! `vai chat` as a user runs it: questions piped in a line each (and, where `script` is at hand,
//! typed in a terminal), answered by the local LLM or by a scripted OpenAI-compatible server on
//! loopback — tool calls, failed turns, exports and exit codes included.

#[path = "chat/fake_openai.rs"]
mod fake_openai;

use super::support::{llm_dir, offline_command};
use super::{scratch, text};
use crate::terminal::Terminal;
use fake_openai::FakeOpenAi;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Instant;

/// `command` running `vai chat args…` with `lines` on its standard input.
fn chat(mut command: Command, args: &[&str], lines: &[&str]) -> Output {
    let mut child = command
        .arg("chat")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start vai chat");
    let mut stdin = child.stdin.take().unwrap();
    let input = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    // Written from a thread: a long input must not wait on output nobody reads yet.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("run vai chat");
    writer.join().unwrap();
    out
}

/// The local LLM's directory, or `None` (after saying so) when it has not been fetched.
fn local_llm(test: &str) -> Option<PathBuf> {
    // `llm_dir` is the one place that knows where the model is; it panics when it is not there.
    match std::panic::catch_unwind(llm_dir) {
        Ok(dir) => Some(dir),
        Err(_) => {
            eprintln!("skipping {test}: the local LLM is missing (bash scripts/fetch-model.sh)");
            None
        }
    }
}

#[test]
fn chat_answers_piped_questions_offline_with_the_local_llm() {
    let Some(llm) = local_llm("chat_answers_piped_questions_offline_with_the_local_llm") else {
        return;
    };
    let home = scratch("chat-local");
    let questions = [
        "How do I authenticate my requests?",
        "What happens when I send too many requests?",
    ];
    let started = Instant::now();
    // One answer in the terminal's layout and one in JSON, each of at most 48 tokens: the local
    // model writes about 8 a second in a debug build. Sessions of several turns are tested on a
    // fake model.
    let out = chat(
        offline_command(&home, &llm),
        &["--max-tokens", "48"],
        &questions[..1],
    );
    let elapsed = started.elapsed();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}\n{stdout}");
    assert!(
        stderr.contains("Provider: local · SmolLM2-135M"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Knowledge base: vai_demo.api_docs ("),
        "{stderr}"
    );
    assert_eq!(stdout.matches("Sources:\n  [1] ").count(), 1, "{stdout}");
    assert!(stdout.contains("  [2] "), "{stdout}");
    // The sample's API docs answer an authentication question.
    assert!(stdout.contains("Authenticating Requests"), "{stdout}");
    eprintln!("a local answer in {elapsed:.1?} (debug build, model load and seeding included)");

    let out = chat(
        offline_command(&home, &llm),
        &["--json", "--quiet", "--max-tokens", "48"],
        &questions[1..],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let turns: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(turns.len(), 1, "{}", text(&out.stdout));
    for turn in &turns {
        assert_eq!(turn["status"], "done", "{turn}");
        assert!(!turn["answer"].as_str().unwrap().is_empty(), "{turn}");
        assert!(!turn["sources"].as_array().unwrap().is_empty(), "{turn}");
        assert_eq!(turn["provider"], "local");
        assert!(turn["timings"]["totalMs"].as_u64().unwrap() > 0, "{turn}");
        // From sources the small model quotes them: each passage is its source's, cited.
        assert_eq!(turn["method"], "extractive", "{turn}");
        let written = turn["usage"]["llmOutputTokens"].as_u64().unwrap_or(0);
        assert_eq!(written, 0, "the model wrote: {turn}");
        let answer = turn["answer"].as_str().unwrap();
        let mut quoted = 0;
        for source in turn["sources"].as_array().unwrap() {
            for passage in source["passages"].as_array().into_iter().flatten() {
                let passage = passage.as_str().unwrap();
                assert!(source["text"].as_str().unwrap().contains(passage), "{turn}");
                assert!(
                    answer.contains(&format!("{passage} [{}]", source["index"])),
                    "{turn}"
                );
                quoted += 1;
            }
        }
        assert!(quoted > 0, "{turn}");
    }
    assert!(
        turns[0]["sessionId"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    assert!(text(&out.stderr).trim().is_empty(), "{}", text(&out.stderr));
}

#[test]
fn chat_agent_shows_tool_calls_and_exports_a_runnable_workflow() {
    let home = scratch("chat-agent");
    let server = FakeOpenAi::start();
    let question = "How do I authenticate my requests?";
    let out = chat(
        server.command(&home),
        &["--mode", "agent"],
        &[question, "/tools", "/export-workflow", "/export-workflow"],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}\n{stdout}");
    assert!(stderr.contains("Provider: openai (gpt-4o)"), "{stderr}");
    assert!(
        stderr.contains("Mode: agent (the model calls vai's tools)"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("● Searching api_docs for \"{question}\"")),
        "{stderr}"
    );
    let result = stderr
        .lines()
        .find(|l| l.starts_with("  ✔ "))
        .unwrap_or_else(|| panic!("no tool result line: {stderr}"));
    assert!(
        result.contains(" results, top score ") && result.ends_with("ms]"),
        "{result}"
    );
    assert!(
        stdout.contains(
            "Requests carry a bearer key in the Authorization header [1].\n\nSources:\n  [1] "
        ),
        "{stdout}"
    );
    // /tools lists the call with its inputs.
    assert!(stdout.contains("1. vai_query {\"query\":"), "{stdout}");
    // The model got the tool's results back, numbered for citing.
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    let tool_result = requests[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .expect("a tool result");
    assert!(
        tool_result["content"]
            .as_str()
            .unwrap()
            .contains("\"cite\":1"),
        "{tool_result}"
    );

    // Two exports, two files: the first name is never replaced.
    let written: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Wrote "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(written.len(), 2, "{stdout}");
    assert!(
        written[0].starts_with("chat-") && written[0].ends_with("-1.vai-workflow.json"),
        "{written:?}"
    );
    assert!(
        written[1].ends_with("-1-2.vai-workflow.json"),
        "{written:?}"
    );
    assert!(
        stdout.contains(&format!(
            "vai workflow run ./{} --input question=\"{question}\"",
            written[0]
        )),
        "{stdout}"
    );
    let workflow: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(written[0])).unwrap()).unwrap();
    assert_eq!(workflow["steps"][0]["tool"], "query", "{workflow}");
    assert_eq!(
        workflow["steps"][0]["inputs"]["query"], "{{ inputs.question }}",
        "{workflow}"
    );

    let validate = server
        .command(&home)
        .args(["workflow", "validate", written[0]])
        .output()
        .unwrap();
    assert_eq!(
        validate.status.code(),
        Some(0),
        "{}",
        text(&validate.stdout)
    );
    let run = server
        .command(&home)
        .args([
            "workflow",
            "run",
            written[0],
            "--input",
            "question=what are the rate limits",
            "--json",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let result: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(result["status"], "completed", "{result}");
    assert!(
        !result["output"]["results"].as_array().unwrap().is_empty(),
        "{result}"
    );
}

#[test]
fn chat_refuses_an_unknown_session_and_a_missing_llm_before_the_banner() {
    let home = scratch("chat-refused");
    let server = FakeOpenAi::start();
    let out = chat(server.command(&home), &["--session", "doesnotexist"], &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: no chat session \"doesnotexist\"")
            && stderr.contains("`vai chat`")
            && stderr.contains("/history"),
        "{stderr}"
    );
    assert!(!stderr.contains("Knowledge base:"), "{stderr}");

    let out = chat(
        offline_command(&home, &home.join("no-local-llm")),
        &[],
        &["hello?"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: no LLM is configured"),
        "{stderr}"
    );
    assert!(stderr.contains("scripts/fetch-model.sh"), "{stderr}");
    assert!(!stderr.contains("Knowledge base:"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn chat_reports_failed_turns_and_answers_the_next_question() {
    let home = scratch("chat-failures");
    let server = FakeOpenAi::start();
    let huge = "why ".repeat(25_600);
    let out = chat(
        server.command(&home),
        &[],
        &[&huge, "CUT this answer short", "How do I authenticate?"],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(1),
        "failed turns fail a piped chat: {stderr}"
    );
    assert!(
        stderr.contains("✗ error: the question is 100 KB; a question may be at most 16 KB"),
        "{stderr}"
    );
    assert!(
        stderr.contains("✗ error: openai: ")
            && stderr.contains("the event stream ended before [DONE]: the answer is incomplete"),
        "{stderr}"
    );
    // The cut answer is shown as far as it came, and the next question is still answered.
    assert!(stdout.contains("The answer begins\n"), "{stdout}");
    assert!(
        stdout.contains("Requests carry a bearer key in the Authorization header [1]."),
        "{stdout}"
    );
    // The oversized question never reached the model.
    assert_eq!(server.requests().len(), 2);

    // The failed turns are recorded, so the session can be resumed and exported.
    let session = stderr
        .lines()
        .find_map(|l| l.strip_prefix("Session: "))
        .and_then(|l| l.split(' ').next())
        .unwrap()
        .to_string();
    let out = chat(
        server.command(&home),
        &["--session", &session, "--quiet"],
        &["/export transcript.json", "/history", "/clear", "/session"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let exported: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join("transcript.json")).unwrap())
            .unwrap();
    let statuses: Vec<&str> = exported["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["failed", "failed", "done"]);
    assert_eq!(exported["turns"][1]["answer"], "The answer begins");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("* {session}    3 turns")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "(the previous one, {session}: resume it with `vai chat --session {session}`)"
        )),
        "{stdout}"
    );
    assert!(stdout.contains("(0 turns, history: local)"), "{stdout}");

    // A knowledge base with nothing in it: said at the start, and each question fails clearly.
    let out = chat(
        server.command(&home),
        &["--collection", "missing_one", "--quiet"],
        &["hello?"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("⚠ vai_demo.missing_one does not exist yet: ingest documents"),
        "{stderr}"
    );
    assert!(
        stderr.contains("✗ error: vai_demo.missing_one has no documents to answer from"),
        "{stderr}"
    );
}

/// In a terminal (a pseudo-terminal made by util-linux `script`): Ctrl-C stops the answer being
/// written and the chat goes on; Ctrl-C at the prompt leaves with 130.
#[cfg(target_os = "linux")]
#[test]
fn chat_in_a_terminal_stops_an_answer_on_ctrl_c_and_leaves_on_the_next() {
    let home = scratch("chat-terminal");
    let server = FakeOpenAi::start();
    // `script` runs vai in the environment and directory made for it.
    let Some(mut term) = Terminal::start(&server.command(&home), "chat") else {
        return;
    };
    term.wait_for("/quit to exit.");
    term.wait_for("> ");
    term.type_keys(b"a SLOW answer please\n");
    term.wait_for("word2 ");
    term.type_keys(b"\x03");
    term.wait_for("■ cancelled");
    term.wait_for("> ");
    term.type_keys(b"How do I authenticate?\n");
    term.wait_for("Authorization header [1].");
    term.wait_for("Sources:");
    term.wait_for("> ");
    term.type_keys(b"\x03");

    let (code, seen) = term.finish();
    assert_eq!(code, Some(130), "{seen}");
    assert!(
        !seen.contains("word149"),
        "the slow answer was stopped: {seen}"
    );
}
