//! The `vai` binary as a user runs it: exit codes, messages naming file, step and field,
//! progress on stderr and results on stdout.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "cli/chat.rs"]
mod chat;
#[path = "cli/cost.rs"]
mod cost;
#[path = "cli/explain.rs"]
mod explain;
#[path = "cli/grounded.rs"]
mod grounded;
#[path = "cli/history.rs"]
mod history;
#[path = "cli/limits.rs"]
mod limits;
#[path = "cli/model_steps.rs"]
mod model_steps;
#[path = "cli/runs.rs"]
mod runs;
#[path = "cli/shared_runs.rs"]
mod shared_runs;
#[path = "cli/step.rs"]
mod step;
mod support;
#[path = "cli/terminal.rs"]
mod terminal;
#[path = "cli/traces.rs"]
mod traces;

use support::{llm_dir, offline_command};

fn vai(args: &[&str], dir: &Path) -> Output {
    vai_command(dir).args(args).output().expect("run vai")
}

/// `vai` to run in `dir`, without colour, with its data directory out of the user's.
fn vai_command(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vai"));
    command
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // Runs open the local store; keep it out of the user's data directory.
        .env(
            "VAI_DATA_DIR",
            std::env::temp_dir().join(format!("vai-cli-{}-data", std::process::id())),
        )
        .env_remove("VAI_DEFAULT_DB")
        .env_remove("VAI_DEFAULT_COLLECTION");
    command
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vai-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn an_invalid_workflow_exits_2_naming_file_step_and_field() {
    let dir = scratch("invalid");
    std::fs::write(
        dir.join("bad.vai-workflow.json"),
        r#"{"name": "bad", "steps": [
            {"id": "s", "tool": "serch", "inputs": {"query": "x"}},
            {"id": "t", "tool": "template", "inputs": {"text": "{{ nothere.output }}"}}
        ]}"#,
    )
    .unwrap();
    let out = vai(&["workflow", "validate", "bad.vai-workflow.json"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("✗ bad.vai-workflow.json"), "{stdout}");
    assert!(
        stdout.contains(
            "step \"s\", tool: unknown tool \"serch\"; did you mean \"search\"? [INVALID_TOOL]"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "step \"t\", inputs.text: \"nothere.output\" references unknown step \"nothere\""
        ),
        "{stdout}"
    );

    let run = vai(&["workflow", "run", "bad.vai-workflow.json"], &dir);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("error: bad.vai-workflow.json: step \"s\", tool:"),
        "{}",
        text(&run.stderr)
    );
}

/// A response format or metrics written out in the file are checked by `validate`, naming the
/// step and the field; written as templates they are the run's to check.
#[test]
fn a_bad_literal_schema_or_metric_fails_validation_naming_step_and_field() {
    let dir = scratch("literal-inputs");
    std::fs::write(
        dir.join("shapes.vai-workflow.json"),
        r#"{"name": "shapes", "inputs": {"m": {"type": "array"}}, "steps": [
            {"id": "rate", "tool": "generate", "inputs": {"prompt": "p",
                "responseFormat": {"type": "object", "properties": {"when": {"type": "date"}}}}},
            {"id": "judge", "tool": "evaluator", "inputs": {"content": "c",
                "metrics": [{"name": "a"}, {"name": "a"}]}},
            {"id": "later", "tool": "evaluator", "inputs": {"content": "c", "metrics": "{{ inputs.m }}"}}
        ]}"#,
    )
    .unwrap();
    let out = vai(&["workflow", "validate", "shapes.vai-workflow.json"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("step \"rate\", inputs.responseFormat.properties.when.type: generate: input \"responseFormat.properties.when.type\" \"date\" is not supported"),
        "{stdout}"
    );
    assert!(
        stdout.contains("step \"judge\", inputs.metrics[1].name: evaluator: input \"metrics[1].name\" \"a\" is listed twice"),
        "{stdout}"
    );
    assert!(!stdout.contains("step \"later\""), "{stdout}");
}

#[test]
fn broken_json_reports_line_and_column() {
    let dir = scratch("json");
    std::fs::write(
        dir.join("broken.json"),
        "{\n  \"name\": \"x\",\n  \"steps\": [}\n",
    )
    .unwrap();
    let out = vai(&["workflow", "run", "broken.json"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("broken.json: line 3, column"), "{err}");
    assert!(err.contains("[INVALID_JSON]"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unknown_workflow_names_are_explained() {
    let out = vai(&["workflow", "run", "no-such-flow"], &repo());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no workflow file or built-in named \"no-such-flow\""));
}

#[test]
fn a_run_prints_progress_on_stderr_and_the_output_on_stdout() {
    let dir = scratch("run");
    std::fs::write(
        dir.join("flow.json"),
        r#"{"name": "flow", "inputs": {"n": {"type": "number", "required": true}, "words": {"type": "array"}},
            "steps": [
              {"id": "pick", "name": "Pick long words", "tool": "filter", "inputs": {"array": "{{ inputs.words }}", "condition": "item.length > {{ inputs.n }}"}},
              {"id": "say", "name": "Report", "tool": "template", "inputs": {"text": "{{ pick.output.resultCount }} of {{ inputs.words.length }} words are longer than {{ inputs.n }}"}},
              {"id": "never", "tool": "template", "condition": "{{ inputs.n > 100 }}", "inputs": {"text": "x"}}
            ],
            "output": "{{ say.output.text }}"}"#,
    )
    .unwrap();
    let out = vai(
        &[
            "workflow",
            "run",
            "flow.json",
            "--input",
            "n=3",
            "--input",
            "words=a,abcd,abcdef",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "2 of 3 words are longer than 3");
    let err = text(&out.stderr);
    assert!(err.contains("✔ Pick long words  2 results  ["), "{err}");
    assert!(err.contains("⊘ never  skipped: condition not met"), "{err}");

    let json = vai(
        &[
            "workflow",
            "run",
            "flow.json",
            "--input",
            "n=3",
            "--input",
            "words=[\"abcd\"]",
            "--json",
            "--quiet",
        ],
        &dir,
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["status"], "completed");
    assert_eq!(v["output"], "1 of 1 words are longer than 3");
    assert!(json.stderr.is_empty(), "{}", text(&json.stderr));
}

#[test]
fn bad_inputs_exit_2_and_a_failing_step_exits_1() {
    let dir = scratch("inputs");
    std::fs::write(
        dir.join("flow.json"),
        r#"{"name": "flow", "inputs": {"n": {"type": "number", "required": true}},
            "steps": [{"id": "get", "tool": "http", "inputs": {"url": "not a url {{ inputs.n }}"}}]}"#,
    )
    .unwrap();
    let missing = vai(&["workflow", "run", "flow.json"], &dir);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("flow.json: missing required input \"n\""),
        "{}",
        text(&missing.stderr)
    );
    let wrong = vai(&["workflow", "run", "flow.json", "--input", "n=ten"], &dir);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(text(&wrong.stderr).contains("input \"n\" must be a number, got \"ten\""));
    let malformed = vai(&["workflow", "run", "flow.json", "--input", "n"], &dir);
    assert_eq!(malformed.status.code(), Some(2));
    assert!(text(&malformed.stderr).contains("--input \"n\" must be key=value"));

    let failed = vai(&["workflow", "run", "flow.json", "--input", "n=1"], &dir);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stderr));
    let err = text(&failed.stderr);
    assert!(err.contains("✗ get  http: input \"url\""), "{err}");
    assert!(
        err.contains("error: flow.json: step \"get\" failed"),
        "{err}"
    );
}

#[test]
fn dry_run_shows_layers_parallel_steps_and_api_calls() {
    let out = vai(
        &[
            "workflow",
            "run",
            "multi-collection-search",
            "--dry-run",
            "--input",
            "query=rate limiting",
        ],
        &repo(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("query = \"rate limiting\""), "{s}");
    assert!(s.contains("(search_1 and search_2 run in parallel)"), "{s}");
    assert!(s.contains("vector searches  2"), "{s}");
    assert!(s.contains("reranks          1"), "{s}");
    let json = vai(
        &[
            "workflow",
            "run",
            "multi-collection-search",
            "--dry-run",
            "--json",
            "--input",
            "query=x",
        ],
        &repo(),
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["layers"][0], serde_json::json!(["search_1", "search_2"]));
    assert_eq!(v["apiCalls"]["fixed"]["embed"], 2);
}

#[test]
fn built_ins_validate_and_their_tests_pass_through_the_cli() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(repo().join("workflows"))
        .unwrap()
        .flatten()
    {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "json") && !p.ends_with("workflow.schema.json") {
            names.push(p.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    names.sort();
    assert!(names.len() >= 9, "{names:?}");
    let dir = scratch("builtins");
    for name in &names {
        let cases = std::fs::read_dir(repo().join("workflows/tests"))
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{name}."))
            })
            .count();
        assert!(
            cases >= 2,
            "{name} has {cases} test cases; every built-in needs at least two"
        );
        let out = vai(&["workflow", "test", name], &dir);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}:\n{stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains(&format!("{cases} passed, 0 failed")),
            "{name}: {stdout}"
        );
    }
}

#[test]
fn a_failing_expectation_fails_the_test_command() {
    let dir = scratch("failing-test");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(dir.join("w.json"), r#"{"name": "w", "steps": [{"id": "t", "tool": "template", "inputs": {"text": "hello"}}], "output": {"text": "{{ t.output.text }}"}}"#).unwrap();
    std::fs::write(dir.join("tests/w.right.test.json"), r#"{"name": "right", "expect": {"output": {"text": {"equals": "hello"}}, "steps": {"t": {"status": "completed"}}}}"#).unwrap();
    std::fs::write(dir.join("tests/w.wrong.test.json"), r#"{"name": "wrong", "expect": {"output": {"text": {"equals": "bye", "minLength": 10}}, "steps": {"t": {"status": "skipped"}}}}"#).unwrap();
    let out = vai(&["workflow", "test", "w.json"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.contains("1 passed, 1 failed"), "{s}");
    assert!(
        s.contains("output.text is \"hello\", expected \"bye\""),
        "{s}"
    );
    assert!(
        s.contains("output.text has length 5, expected at least 10"),
        "{s}"
    );
    assert!(
        s.contains("step \"t\" expected was skipped, but completed"),
        "{s}"
    );
    let one = vai(&["workflow", "test", "w.json", "--test", "right"], &dir);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stdout));
}

#[test]
fn init_scaffolds_a_workflow_that_validates_and_tests() {
    let dir = scratch("init");
    let out = vai(
        &[
            "workflow",
            "init",
            "--name",
            "Support Search",
            "--template",
            "rag",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.join("support-search.vai-workflow.json").is_file());
    assert_eq!(
        vai(
            &["workflow", "validate", "support-search.vai-workflow.json"],
            &dir
        )
        .status
        .code(),
        Some(0)
    );
    let t = vai(
        &["workflow", "test", "support-search.vai-workflow.json"],
        &dir,
    );
    assert_eq!(t.status.code(), Some(0), "{}", text(&t.stdout));
    let again = vai(&["workflow", "init", "--name", "Support Search"], &dir);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("already exists"));
}

#[test]
fn init_search_and_ingest_templates_validate_and_pass_their_tests() {
    let dir = scratch("init-templates");
    for template in ["search", "ingest"] {
        let name = format!("{template} flow");
        let out = vai(
            &["workflow", "init", "--name", &name, "--template", template],
            &dir,
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let file = format!("{template}-flow.vai-workflow.json");
        let check = vai(&["workflow", "validate", &file], &dir);
        assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
        // Written in the stable form: fmt has nothing to change.
        let fmt = vai(&["workflow", "fmt", "--check", &file], &dir);
        assert_eq!(fmt.status.code(), Some(0), "{}", text(&fmt.stdout));
        let t = vai(&["workflow", "test", &file], &dir);
        assert_eq!(t.status.code(), Some(0), "{}", text(&t.stdout));
    }
}

#[test]
fn list_shows_built_ins_examples_and_local_files() {
    let dir = scratch("list");
    std::fs::write(
        dir.join("mine.vai-workflow.json"),
        r#"{"name": "mine", "description": "my own", "steps": []}"#,
    )
    .unwrap();
    let out = vai(&["workflow", "list", "--json"], &dir);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let find = |id: &str| {
        v["workflows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["id"] == id)
            .cloned()
    };
    // The same summaries, with the same ids, as the playground's `GET /api/workflows`.
    let rag = find("builtin:rag-chat").unwrap();
    assert_eq!(rag["source"], "builtin");
    assert_eq!(rag["readOnly"], true);
    assert!(
        v["workflows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["source"] == "example")
    );
    let mine = find("file:mine.vai-workflow.json").unwrap();
    assert_eq!(mine["description"], "my own");
    assert_eq!(mine["readOnly"], false);
    let human = text(&vai(&["workflow", "list"], &dir).stdout);
    assert!(human.contains("mine.vai-workflow.json"), "{human}");
    assert!(human.contains("rag-chat"), "{human}");
}

#[test]
fn fmt_rewrites_into_the_stable_form_and_check_only_reports() {
    let dir = scratch("fmt");
    let messy = r#"{"steps": [{"id": "a", "tool": "template", "inputs": {"text": "x"}}], "ui": {"positions": {}}, "name": "m", "x-mine": [1,2]}"#;
    std::fs::write(dir.join("m.vai-workflow.json"), messy).unwrap();
    std::fs::write(
        dir.join("ok.vai-workflow.json"),
        "{\n  \"name\": \"ok\"\n}\n",
    )
    .unwrap();

    let check = vai(
        &[
            "workflow",
            "fmt",
            "--check",
            "m.vai-workflow.json",
            "ok.vai-workflow.json",
        ],
        &dir,
    );
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stderr));
    assert_eq!(text(&check.stdout), "m.vai-workflow.json\n");
    assert_eq!(
        std::fs::read_to_string(dir.join("m.vai-workflow.json")).unwrap(),
        messy,
        "--check writes nothing"
    );

    let fmt = vai(
        &[
            "workflow",
            "fmt",
            "m.vai-workflow.json",
            "ok.vai-workflow.json",
        ],
        &dir,
    );
    assert_eq!(fmt.status.code(), Some(0), "{}", text(&fmt.stderr));
    assert!(text(&fmt.stderr).contains("formatted m.vai-workflow.json"));
    let written = std::fs::read_to_string(dir.join("m.vai-workflow.json")).unwrap();
    assert!(
        written.starts_with("{\n  \"name\": \"m\",\n  \"steps\": ["),
        "{written}"
    );
    assert!(
        written.ends_with("  \"ui\": {\n    \"positions\": {}\n  }\n}\n"),
        "{written}"
    );
    assert!(
        written.contains("\"x-mine\": [\n    1,\n    2\n  ]"),
        "unknown keys kept: {written}"
    );
    let again = vai(&["workflow", "fmt", "--check", "m.vai-workflow.json"], &dir);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(text(&again.stdout), "");
}

#[test]
fn fmt_names_a_file_that_is_not_a_workflow_and_exits_2() {
    let dir = scratch("fmt-not-a-workflow");
    let schema = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../workflows/workflow.schema.json")
        .canonicalize()
        .unwrap();
    std::fs::write(
        dir.join("case.test.json"),
        r#"{"inputs": {}, "expect": {}}"#,
    )
    .unwrap();
    for (file, what) in [
        (schema.to_str().unwrap(), "a JSON Schema document"),
        (
            "case.test.json",
            "an object with neither \"name\" nor \"steps\"",
        ),
    ] {
        let out = vai(&["workflow", "fmt", "--check", file], &dir);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(&format!("is not a workflow file ({what})")),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), "", "not listed as needing formatting");
    }
}

#[test]
fn fmt_names_the_file_line_and_column_of_broken_json_and_exits_2() {
    let dir = scratch("fmt-broken");
    std::fs::write(
        dir.join("b.vai-workflow.json"),
        "{\n  \"name\": \"b\",\n  \"steps\": [,]\n}",
    )
    .unwrap();
    let out = vai(
        &["workflow", "fmt", "b.vai-workflow.json", "missing.json"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("b.vai-workflow.json:3:"), "{err}");
    assert!(err.contains("missing.json"), "{err}");
}

/// `vai` with nothing configured: no keys, no user config, a fresh data directory, and no local
/// LLM (see [`offline_vai_with_llm`]).
fn offline_vai(args: &[&str], home: &Path) -> Output {
    offline_vai_in(args, home, &home.join("no-local-llm"))
}

/// [`offline_vai`] with the local LLM fetched.
fn offline_vai_with_llm(args: &[&str], home: &Path) -> Output {
    offline_vai_in(args, home, &llm_dir())
}

fn offline_vai_in(args: &[&str], home: &Path, llm_dir: &Path) -> Output {
    offline_command(home, llm_dir)
        .args(args)
        .output()
        .expect("run vai")
}

#[test]
fn built_ins_run_end_to_end_on_the_local_default() {
    let home = scratch("offline");

    let first = offline_vai(
        &[
            "workflow",
            "run",
            "multi-collection-search",
            "--input",
            "query=how does authentication work",
            "--json",
        ],
        &home,
    );
    let err = text(&first.stderr);
    assert_eq!(first.status.code(), Some(0), "{err}");
    assert!(err.contains("prepared the sample knowledge base"), "{err}");
    assert!(
        err.contains("· local · "),
        "every retrieval step says which backend served it: {err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let results = v["output"]["results"].as_array().expect("results");
    assert!(results.len() >= 5, "{v}");
    let top: Vec<String> = results
        .iter()
        .take(3)
        .map(|r| r["text"].as_str().unwrap_or("").to_lowercase())
        .collect();
    assert!(
        top.iter().any(|t| t.contains("auth")),
        "the best results should be about authentication: {top:?}"
    );

    let again = offline_vai(
        &[
            "workflow",
            "run",
            "multi-collection-search",
            "--input",
            "query=rate limits",
        ],
        &home,
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        !text(&again.stderr).contains("prepared the sample"),
        "seeding happens once"
    );

    let check = offline_vai(
        &[
            "workflow",
            "run",
            "consistency-check",
            "--input",
            "topic=rate limits per plan",
            "--json",
            "--quiet",
        ],
        &home,
    );
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let v: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let similarity = v["output"]["similarity"].as_f64().unwrap_or(-1.0);
    assert!((0.0..=1.0).contains(&similarity), "{v}");

    let ingest = offline_vai(
        &[
            "workflow",
            "run",
            "smart-ingest",
            "--input",
            "text=Quarterly penguin census results for the Antarctic field station.",
            "--input",
            "source=penguins.md",
            "--json",
            "--quiet",
        ],
        &home,
    );
    assert_eq!(ingest.status.code(), Some(0), "{}", text(&ingest.stderr));
    let v: serde_json::Value = serde_json::from_slice(&ingest.stdout).unwrap();
    assert_eq!(v["output"]["ingested"], true, "{v}");
    let found = offline_vai(
        &[
            "workflow",
            "run",
            "research-and-summarize",
            "--input",
            "question=penguin census",
            "--json",
            "--quiet",
        ],
        &home,
    );
    assert_eq!(
        found.status.code(),
        Some(1),
        "generate needs an LLM: {}",
        text(&found.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    let research = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "research")
        .unwrap();
    assert_eq!(research["status"], "completed", "{v}");
    assert_eq!(
        research["output"]["results"][0]["source"], "penguins.md",
        "the ingested document is found first: {v}"
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap_or("")
            .contains("no LLM provider is configured"),
        "{v}"
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap_or("")
            .contains("bash scripts/fetch-model.sh"),
        "without the local LLM the error names the command that fetches it: {v}"
    );
}

#[test]
fn generate_runs_offline_on_the_local_llm() {
    let home = scratch("offline-llm");
    let workflow = home.join("ask.vai-workflow.json");
    std::fs::write(
        &workflow,
        serde_json::json!({
            "name": "Ask offline",
            "inputs": {"question": {"type": "string", "required": true}},
            "steps": [
                {"id": "find", "tool": "query",
                 "inputs": {"query": "{{ inputs.question }}", "limit": 2}},
                {"id": "answer", "tool": "generate",
                 "inputs": {"prompt": "{{ inputs.question }}",
                            "context": "{{ find.output.results }}",
                            "temperature": 0, "maxTokens": 8}}
            ],
            "output": {"text": "{{ answer.output.text }}",
                       "model": "{{ answer.output.model }}",
                       "provider": "{{ answer.output.provider }}"}
        })
        .to_string(),
    )
    .unwrap();
    let out = offline_vai_with_llm(
        &[
            "workflow",
            "run",
            workflow.to_str().unwrap(),
            "--input",
            "question=how does authentication work",
            "--json",
        ],
        &home,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["output"]["provider"], "local", "{v}");
    assert_eq!(v["output"]["model"], "SmolLM2-135M-Instruct", "{v}");
    assert!(
        !v["output"]["text"].as_str().unwrap_or("").trim().is_empty(),
        "{v}"
    );
}

#[test]
fn config_set_get_list_mask_secrets_and_keep_the_file_private() {
    let home = scratch("config");
    let cfg_path = home.join("cfg/config.json");
    let run = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_vai"));
        cmd.args(args)
            .current_dir(&home)
            .env("VAI_CONFIG_PATH", &cfg_path)
            .env_remove("VOYAGE_API_KEY")
            .env_remove("VAI_DEFAULT_DB");
        cmd.output().unwrap()
    };
    let set = run(&["config", "set", "api-key", "pa-abcdefghijklmnop"]);
    assert_eq!(set.status.code(), Some(0), "{}", text(&set.stderr));
    assert!(
        text(&set.stdout).contains("api-key = pa-a...mnop"),
        "{}",
        text(&set.stdout)
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&cfg_path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    assert!(run(&["config", "set", "default-db", "kb"]).status.success());
    std::fs::write(
        home.join(".vai.json"),
        r#"{"db": "from-project", "collection": "docs"}"#,
    )
    .unwrap();
    let get = run(&["config", "get", "api-key"]);
    assert_eq!(text(&get.stdout).trim(), "pa-a...mnop  (user config)");
    let list = text(&run(&["config", "list"]).stdout);
    assert!(
        list.contains("default-db          kb  (user config)"),
        "{list}"
    );
    assert!(
        list.contains("default-collection  docs  (.vai.json)"),
        "{list}"
    );
    assert!(
        !list.contains("abcdefghijklmnop"),
        "secrets never printed: {list}"
    );
    let bad = run(&["config", "set", "nope", "x"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown setting \"nope\""));
    assert!(run(&["config", "unset", "api-key"]).status.success());
    assert_eq!(run(&["config", "get", "api-key"]).status.code(), Some(1));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&home.join("cfg")), 0o700, "the directory vai created");
        // VAI_CONFIG_PATH in a directory vai did not create (a project, $HOME): left as it was.
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
        let beside = home.join("vai-config.json");
        let set = Command::new(env!("CARGO_BIN_EXE_vai"))
            .args(["config", "set", "api-key", "pa-abcdefghijklmnop"])
            .current_dir(&home)
            .env("VAI_CONFIG_PATH", &beside)
            .output()
            .unwrap();
        assert_eq!(set.status.code(), Some(0), "{}", text(&set.stderr));
        assert_eq!(mode(&home), 0o755);
        assert_eq!(mode(&beside), 0o600);
    }
}

#[test]
fn ping_reports_a_failing_provider_with_a_hint() {
    let home = scratch("ping");
    let out = Command::new(env!("CARGO_BIN_EXE_vai"))
        .args(["ping", "--timeout", "5"])
        .current_dir(&home)
        .env("HOME", &home)
        .env("VAI_CONFIG_PATH", home.join("none.json"))
        .env("VAI_DATA_DIR", home.join("data"))
        .env("VOYAGE_API_KEY", "pa-test-key-not-real")
        .env("VOYAGE_API_BASE", "http://127.0.0.1:9/v1")
        .env_remove("MONGODB_URI")
        .env_remove("VAI_LLM_PROVIDER")
        .output()
        .unwrap();
    let s = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{s}");
    assert!(s.contains("✗ voyage"), "{s}");
    assert!(s.contains("hint: check VOYAGE_API_KEY"), "{s}");
    assert!(s.contains("✔ store"), "{s}");
    assert!(
        s.contains(
            &home
                .join("data")
                .join("store.sqlite3")
                .display()
                .to_string()
        ),
        "ping shows where the local store is: {s}"
    );
    assert!(!s.contains("pa-test-key-not-real"), "{s}");
}

/// A one-route HTTP server on loopback for `http` steps: answers every request with `{"ok":true}`
/// until the test ends.
fn serve_json() -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}",
            );
        }
    });
    port
}

#[test]
fn http_steps_reach_loopback_only_with_allow_host() {
    let dir = scratch("allow-host");
    let port = serve_json();
    std::fs::write(
        dir.join("fetch.json"),
        format!(
            r#"{{"name": "fetch", "steps": [{{"id": "get", "tool": "http", "inputs": {{"url": "http://127.0.0.1:{port}/x"}}}}],
               "output": {{"ok": "{{{{ get.output.body.ok }}}}"}}}}"#
        ),
    )
    .unwrap();
    let refused = vai(&["workflow", "run", "fetch.json"], &dir);
    assert_eq!(refused.status.code(), Some(1));
    let err = text(&refused.stderr);
    assert!(
        err.contains(&format!(
            "http: refusing to connect to 127.0.0.1 (loopback address) for \"http://127.0.0.1:{port}/x\""
        )),
        "{err}"
    );
    assert!(
        err.contains("need an entry in allowedHosts in .vai.json or --allow-host 127.0.0.1"),
        "{err}"
    );

    let allowed = vai(
        &[
            "workflow",
            "run",
            "fetch.json",
            "--allow-host",
            "127.0.0.1",
            "--json",
        ],
        &dir,
    );
    assert_eq!(allowed.status.code(), Some(0), "{}", text(&allowed.stderr));
    let result: serde_json::Value = serde_json::from_slice(&allowed.stdout).unwrap();
    assert_eq!(result["output"]["ok"], true);

    std::fs::write(dir.join(".vai.json"), r#"{"allowedHosts": ["127.0.0.1"]}"#).unwrap();
    let listed = vai(&["workflow", "run", "fetch.json"], &dir);
    assert_eq!(listed.status.code(), Some(0), "{}", text(&listed.stderr));
}

/// `vai playground` in the background, and the URL it printed.
struct Playground {
    child: std::process::Child,
    url: String,
}

impl Playground {
    fn start(dir: &Path) -> Playground {
        Self::start_with(dir, &[], &[])
    }

    /// Started with extra arguments and environment; `VAI_PLAYGROUND_TOKEN` is removed unless
    /// given.
    fn start_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Playground {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vai"));
        command
            .args(["playground", "--port", "0", "--no-open"])
            .args(args)
            .env_remove("VAI_PLAYGROUND_TOKEN");
        Self::spawn(command, dir, env)
    }

    fn spawn(mut command: Command, dir: &Path, env: &[(&str, &str)]) -> Playground {
        use std::io::BufRead;
        command
            .current_dir(dir)
            .envs(env.iter().copied())
            .env(
                "VAI_DATA_DIR",
                std::env::temp_dir().join(format!("vai-cli-{}-data", std::process::id())),
            )
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        let mut child = command.spawn().expect("start vai playground");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim_end()
            .strip_prefix("vai playground: ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Playground { child, url }
    }

    /// Stop it as Ctrl-C stops it (SIGTERM: runs end, their journals and last spans go) and
    /// wait until it has.
    fn stop(&mut self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill -TERM");
        assert!(sent.success());
        let _ = self.child.wait();
    }

    /// Start a run of `definition` with no inputs: its id.
    fn start_run(&self, definition: serde_json::Value) -> String {
        let start = serde_json::json!({"definition": definition, "inputs": {}});
        let (status, body) = self.post("/api/runs", &start.to_string());
        assert!(status.contains(" 201 "), "{status} {body}");
        let created: serde_json::Value = serde_json::from_str(&body).unwrap();
        created["runId"].as_str().unwrap().to_string()
    }

    /// The token the printed URL carries.
    fn token(&self) -> &str {
        let query = self.url.split_once('?').map_or("", |(_, q)| q);
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))
            .unwrap_or_else(|| panic!("no token in {}", self.url))
    }

    /// A GET with the printed token, over a plain socket: status line and body.
    fn get(&self, path: &str) -> (String, String) {
        let auth = format!("Bearer {}", self.token());
        self.get_as(path, Some(&auth))
    }

    /// A GET with this `Authorization`, if any.
    fn get_as(&self, path: &str, authorization: Option<&str>) -> (String, String) {
        self.send("GET", path, authorization, None)
    }

    /// A POST of the JSON `body` with the printed token: status line and body.
    fn post(&self, path: &str, body: &str) -> (String, String) {
        let auth = format!("Bearer {}", self.token());
        self.send("POST", path, Some(&auth), Some(body))
    }

    /// A request over a plain socket: status line and body.
    fn send(
        &self,
        method: &str,
        path: &str,
        authorization: Option<&str>,
        body: Option<&str>,
    ) -> (String, String) {
        use std::io::{Read, Write};
        let authority = self
            .url
            .strip_prefix("http://")
            .and_then(|r| r.split('/').next())
            .unwrap();
        let mut stream = std::net::TcpStream::connect(authority).unwrap();
        let auth = authorization.map_or(String::new(), |a| format!("Authorization: {a}\r\n"));
        let content = body.map_or(String::new(), |b| {
            format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            )
        });
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {authority}\r\n{auth}{content}Connection: close\r\n\r\n{}",
            body.unwrap_or_default()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        (
            head.lines().next().unwrap_or("").to_string(),
            body.to_string(),
        )
    }
}

impl Drop for Playground {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn playground_prints_its_url_and_serves_the_api() {
    let dir = scratch("playground");
    let server = Playground::start(&dir);
    assert!(
        server.url.starts_with("http://127.0.0.1:") && server.url.contains("/?token="),
        "{}",
        server.url
    );
    assert!(!server.url.contains(":0/"), "the real port is printed");
    let (status, body) = server.get("/api/tools");
    assert!(status.contains(" 200 "), "{status}");
    // Chunked or not, the catalog names the tools.
    assert!(body.contains("\"name\":\"query\""), "{body}");
}

#[test]
fn playground_api_needs_the_printed_token() {
    let dir = scratch("playground-token");
    let server = Playground::start(&dir);
    let token = server.token().to_string();
    assert_eq!(token.len(), 64, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    let (status, body) = server.get_as("/api/tools", None);
    assert!(status.contains(" 401 "), "{status}");
    assert!(body.contains("UNAUTHORIZED"), "{body}");
    // The page itself needs no token; the token URL trades it for a cookie.
    let (status, _) = server.get_as("/", None);
    assert!(status.contains(" 200 "), "{status}");
    let (status, _) = server.get_as(&format!("/?token={token}"), None);
    assert!(status.contains(" 303 "), "{status}");
    // Another start, another token.
    let other = Playground::start(&dir);
    assert_ne!(other.token(), token);
}

#[test]
fn playground_token_comes_from_the_flag_or_the_environment() {
    let dir = scratch("playground-given-token");
    let flag = Playground::start_with(&dir, &["--token", "flag-token-0123456789"], &[]);
    assert_eq!(flag.token(), "flag-token-0123456789");
    assert!(flag.get("/api/tools").0.contains(" 200 "));
    let env = Playground::start_with(
        &dir,
        &[],
        &[("VAI_PLAYGROUND_TOKEN", "env-token-0123456789")],
    );
    assert_eq!(env.token(), "env-token-0123456789");

    let out = vai(&["playground", "--no-open", "--token", "short"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--token") && stderr.contains("16 characters"),
        "{stderr}"
    );
}

#[test]
fn playground_limits_are_flags_with_their_defaults_in_the_help() {
    let out = vai(&["playground", "--help"], &scratch("playground-help"));
    let help = text(&out.stdout);
    for (flag, default) in [
        ("--max-connections", "512"),
        ("--header-timeout", "10"),
        ("--idle-timeout", "60"),
        ("--max-runs", "8"),
        ("--keep-runs", "20"),
        ("--keep-mb", "256"),
        ("--max-sockets", "256"),
    ] {
        let line = help
            .lines()
            .skip_while(|l| !l.contains(flag))
            .take_while(|l| !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            line.contains(&format!("[default: {default}]")),
            "{flag}: {help}"
        );
    }
    let out = vai(
        &["playground", "--max-runs", "0"],
        &scratch("playground-help"),
    );
    assert_eq!(out.status.code(), Some(2));
}

/// The soft limit on open files is raised to the hard limit, whatever it was started with.
#[cfg(target_os = "linux")]
#[test]
fn playground_raises_the_open_file_limit() {
    let dir = scratch("playground-nofile");
    let hard = text(
        &Command::new("sh")
            .args(["-c", "ulimit -Hn"])
            .output()
            .unwrap()
            .stdout,
    );
    let hard = hard.trim().to_string();
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -Sn 256 && exec \"$0\" playground --port 0 --no-open")
        .arg(env!("CARGO_BIN_EXE_vai"))
        .env_remove("VAI_PLAYGROUND_TOKEN");
    let server = Playground::spawn(command, &dir, &[]);
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", server.child.id())).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let numbers: Vec<&str> = line.split_whitespace().skip(3).take(2).collect();
    assert_eq!(numbers, [hard.as_str(), hard.as_str()], "{line}");
}

#[cfg(unix)]
#[test]
fn playground_stops_cleanly_on_sigterm() {
    let dir = scratch("playground-term");
    let mut server = Playground::start(&dir);
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = server.child.wait().unwrap();
    assert_eq!(exit.code(), Some(0));
}

#[test]
fn playground_on_a_busy_port_exits_2() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let out = vai(
        &["playground", "--port", &port, "--no-open"],
        &scratch("busy"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("already in use"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn playground_opens_a_named_workflow() {
    let dir = scratch("playground-open");
    std::fs::write(
        dir.join("mine.vai-workflow.json"),
        r#"{"name": "mine", "steps": [{"id": "t", "tool": "template", "inputs": {"text": "x"}}]}"#,
    )
    .unwrap();
    let out = vai(&["playground", "nope-nothing", "--no-open"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let mut child = Command::new(env!("CARGO_BIN_EXE_vai"))
        .args(["playground", "mine", "--port", "0", "--no-open"])
        .current_dir(&dir)
        .env(
            "VAI_DATA_DIR",
            std::env::temp_dir().join(format!("vai-cli-{}-data", std::process::id())),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.trim_end()
            .ends_with("&workflow=file:mine.vai-workflow.json"),
        "{line}"
    );
}

/// Offline, the embedding comparison cannot compare: every row is the local model. The table
/// says which model each row asked for and what served it, and a note says what it needs.
#[test]
fn the_embedding_comparison_says_offline_that_it_needs_voyage() {
    let dir = scratch("emb-compare");
    let out = vai_command(&dir)
        .args([
            "workflow",
            "run",
            "embedding-model-comparison",
            "--input",
            "text1=cats purr",
            "--input",
            "text2=kittens meow",
        ])
        .env_remove("VOYAGE_API_KEY")
        .env("VAI_CONFIG_PATH", dir.join("no-config.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for model in ["voyage-4-large", "voyage-4 ", "voyage-4-lite"] {
        assert!(stdout.contains(model), "{stdout}");
    }
    assert!(stdout.contains("servedBy"), "{stdout}");
    assert!(
        stdout.contains(
            "note: No Voyage AI key: the local model (all-minilm-l6-v2) served every row"
        ) && stdout.contains("Set VOYAGE_API_KEY to compare the 3 Voyage models listed."),
        "{stdout}"
    );
}
