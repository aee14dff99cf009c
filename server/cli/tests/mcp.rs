//! `vai mcp` over stdio, as a desktop client starts it: the SDK's own client drives the built
//! binary as a child process, on the offline default (the local embedding model and store, the
//! sample knowledge base), in a scratch workflow directory.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ProgressNotificationParam, Request,
    ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

mod support;

use support::collector::{collector, contains, sent};
use support::offline_command;

/// A fresh directory: the workflow directory, and home of the user config and the data.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vai-mcp-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `vai mcp` with nothing configured, in `home`; no local LLM: `generate` fails or asks the
/// client's model, whatever is fetched.
fn offline(args: &[&str], home: &Path) -> Command {
    let mut cmd = offline_command(home, &home.join("no-local-llm"));
    cmd.arg("mcp").args(args);
    cmd
}

#[derive(Clone, Default)]
struct Seen {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Seen {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, Seen>;

async fn spawn(
    home: &Path,
) -> (
    Client,
    tokio::task::JoinHandle<String>,
    tokio::process::Child,
) {
    let mut child = tokio::process::Command::from(offline(&[], home))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn vai mcp");
    // Read stderr as it comes, so the child never blocks on a full pipe.
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = tokio::spawn(async move {
        let mut text = String::new();
        let _ = tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut text).await;
        text
    });
    let transport = (
        child.stdout.take().expect("stdout"),
        child.stdin.take().expect("stdin"),
    );
    let client = Seen::default().serve(transport).await.expect("initialize");
    (client, reader, child)
}

async fn call(client: &Client, name: &str, args: Value) -> CallToolResult {
    let args: Map<String, Value> = args.as_object().cloned().unwrap_or_default();
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args))
        .await
        .expect("a tool result")
}

fn ok(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structuredContent")
}

fn err(result: &CallToolResult) -> &Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structuredContent")
}

#[tokio::test(flavor = "multi_thread")]
async fn over_stdio_a_client_searches_runs_and_authors_workflows_offline() {
    let home = scratch("stdio");
    let (client, stderr, mut child) = spawn(&home).await;
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "vai_query"));
    assert!(tools.iter().any(|t| t.name == "w_cost_analysis"));
    assert!(client.list_all_resources().await.unwrap().len() >= 4);
    assert_eq!(client.list_all_prompts().await.unwrap().len(), 4);

    // Tools that need nothing configured.
    let models = call(&client, "vai_models", json!({"category": "embedding"})).await;
    assert!(
        ok(&models)["models"]
            .as_array()
            .is_some_and(|m| !m.is_empty())
    );
    let explain = call(&client, "vai_explain", json!({"topic": "reranking"})).await;
    assert_eq!(ok(&explain)["found"], true);

    // Retrieval on the offline default: the local model over the sample knowledge base.
    let query = call(
        &client,
        "vai_query",
        json!({"query": "how does authentication work", "limit": 3}),
    )
    .await;
    let body = ok(&query);
    assert_eq!(body["resultCount"], 3, "{body}");
    let meta = query.meta.as_ref().expect("_meta");
    assert_eq!(meta.0["vai/backend"], "local");

    // A workflow tool, with progress.
    let params = CallToolRequestParams::new("w_cost_analysis")
        .with_arguments(json!({"docs": 100}).as_object().unwrap().clone());
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let ServerResult::CallToolResult(result) = handle.await_response().await.unwrap() else {
        panic!("not a tool result");
    };
    assert_eq!(
        ok(&result)["output"]["comparison"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    for _ in 0..100 {
        if client
            .service()
            .progress
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.progress == 3.0)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // The three steps run at once: steps that end together are reported together, each report
    // a new count. rmcp hands each notification to the client in a task of its own, so they may
    // be recorded out of order: sorted, they climb to 3.
    let mut done: Vec<f64> = client
        .service()
        .progress
        .lock()
        .unwrap()
        .iter()
        .map(|p| p.progress)
        .collect();
    done.sort_by(f64::total_cmp);
    assert!(
        done.windows(2).all(|w| w[0] < w[1]) && done.last() == Some(&3.0),
        "{done:?}"
    );

    // Authoring: a draft with an error, fixed, saved, run.
    let mut draft = json!({
        "name": "Auth Answers",
        "inputs": {"question": {"type": "string", "required": true}},
        "steps": [{"id": "find", "tool": "serch", "inputs": {"query": "{{ inputs.question }}", "limit": 2}}],
        "output": {"hits": "{{ find.output.results }}"}
    });
    let checked = call(&client, "workflow_validate", json!({"definition": draft})).await;
    assert_eq!(ok(&checked)["valid"], false);
    assert_eq!(ok(&checked)["errors"][0]["path"], "steps[find].tool");
    draft["steps"][0]["tool"] = json!("search");
    assert_eq!(
        ok(&call(&client, "workflow_validate", json!({"definition": draft})).await)["valid"],
        true
    );
    let saved = call(
        &client,
        "workflow_save",
        json!({"name": "auth-answers", "definition": draft}),
    )
    .await;
    assert_eq!(ok(&saved)["tool"], "w_auth_answers");
    assert!(home.join("auth-answers.vai-workflow.json").is_file());
    let ran = call(
        &client,
        "w_auth_answers",
        json!({"question": "how do I rotate an API key"}),
    )
    .await;
    assert_eq!(ok(&ran)["output"]["hits"].as_array().unwrap().len(), 2);

    // A 10 MB document is refused before it is parsed, and nothing is written.
    let huge = format!(
        "{{\"name\": \"x\", \"description\": \"{}\", \"steps\": []}}",
        "x".repeat(10 * 1024 * 1024)
    );
    let refused = call(
        &client,
        "workflow_save",
        json!({"name": "huge", "content": huge}),
    )
    .await;
    assert_eq!(err(&refused)["error_code"], "WORKFLOW_TOO_LARGE");
    assert!(!home.join("huge.vai-workflow.json").exists());

    // Closing stdin ends the server: it exits 0.
    client.cancel().await.unwrap();
    let status = tokio::time::timeout(std::time::Duration::from_secs(30), child.wait())
        .await
        .expect("vai mcp exits when its client leaves")
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let stderr = stderr.await.unwrap();
    assert!(
        stderr.contains("prepared the sample knowledge base"),
        "{stderr}"
    );
}

/// Every line the server writes to stdout is a JSON-RPC message — the model loading and the
/// sample seeding a retrieval call sets off included — and it exits 0 when stdin closes.
#[test]
fn stdout_carries_nothing_but_protocol_messages() {
    let home = scratch("stdout");
    let mut child = offline(&[], &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "vai_search", "arguments": {"query": "deployment", "limit": 1}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "vai_nope", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "vai_explain", "arguments": [1, 2]}}),
    ];
    // Lines arrive on a channel, so a reply that never comes fails the test instead of hanging it.
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut replies = Vec::new();
    for message in &messages {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
        if message.get("id").is_none() {
            continue;
        }
        let line = lines
            .recv_timeout(std::time::Duration::from_secs(120))
            .unwrap_or_else(|e| panic!("no reply to {message}: {e}"));
        let reply: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not JSON on stdout ({e}): {line}"));
        assert_eq!(reply["jsonrpc"], "2.0", "{line}");
        replies.push(reply);
    }
    assert_eq!(replies[0]["result"]["serverInfo"]["name"], "vai");
    assert_eq!(
        replies[1]["result"]["structuredContent"]["resultCount"], 1,
        "{}",
        replies[1]
    );
    // An unknown tool and arguments that are not an object are protocol errors.
    assert_eq!(replies[2]["error"]["code"], -32602, "{}", replies[2]);
    assert!(replies[3]["error"]["code"].is_i64(), "{}", replies[3]);
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    reader.join().unwrap();
    let rest: Vec<String> = lines.try_iter().collect();
    assert!(rest.is_empty(), "{rest:?}");
}

/// `--read-only`, `VAI_MCP_READ_ONLY` and `.vai.json` `mcp.readOnly` all hide the tools that
/// change anything.
#[test]
fn read_only_comes_from_the_flag_the_environment_or_the_project_file() {
    let home = scratch("read-only");
    let listed = |cmd: &mut Command| {
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let tools = |extra: &[&str]| {
        let mut cmd = offline(&["tools"], &home);
        cmd.args(extra);
        cmd
    };
    assert!(listed(&mut tools(&[])).contains("workflow_save "));
    assert!(!listed(&mut tools(&["--read-only"])).contains("workflow_save "));
    assert!(!listed(tools(&[]).env("VAI_MCP_READ_ONLY", "1")).contains("workflow_save "));
    std::fs::write(home.join(".vai.json"), r#"{"mcp": {"readOnly": true}}"#).unwrap();
    assert!(!listed(&mut tools(&[])).contains("workflow_save "));
}

/// `vai mcp --otlp-endpoint`: a run a client starts is sent as a trace, by the time the server
/// has exited.
#[test]
fn a_run_started_by_a_client_is_sent_to_the_collector() {
    let home = scratch("traces");
    std::fs::write(
        home.join("shout.vai-workflow.json"),
        r#"{"name": "shout", "steps": [{"id": "loud", "tool": "template", "inputs": {"text": "HEY"}}],
            "output": "{{ loud.output.text }}"}"#,
    )
    .unwrap();
    let (port, requests) = collector();
    let mut child = offline(
        &["--otlp-endpoint", &format!("http://127.0.0.1:{port}")],
        &home,
    )
    .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "w_shout", "arguments": {}}}),
    ];
    let mut replies = Vec::new();
    for message in &messages {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
        if message.get("id").is_some() {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            replies.push(serde_json::from_str::<Value>(&line).unwrap());
        }
    }
    assert_eq!(
        replies[1]["result"]["structuredContent"]["output"], "HEY",
        "{}",
        replies[1]
    );
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("traces: each run is sent to"), "{stderr}");
    let body = sent(&requests);
    for name in ["run shout", "step loud", "vai.run.id"] {
        assert!(contains(&body, name), "{name} was sent");
    }
}
