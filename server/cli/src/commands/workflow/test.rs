//! `vai workflow test`.

use super::load::{load, print_diagnostics};
use crate::exit::{EXIT_FAILED, EXIT_INVALID, EXIT_OK};
use crate::{app, config::Config};
use clap::Args;
use serde_json::json;
use std::path::Path;
use vai_runtime::builtin::{self, CaseFile};
use vai_workflow::Mode;
use vai_workflow::test_cases::{parse_case, run_case};

/// Run a workflow's test cases: tests/<workflow>.<case>.test.json beside it, with mocked tools.
#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// Workflow file, or the name of a built-in.
    pub workflow: String,
    /// Run only this case: its name, its <case> part, or a test file path.
    #[arg(long = "test", value_name = "NAME|FILE")]
    pub test: Option<String>,
    /// Print results as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) async fn run(args: TestArgs) -> anyhow::Result<u8> {
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    let registry = app::offline_registry(&cfg);
    let (located, compiled) = match load(&args.workflow, &registry, Mode::Strict) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let Some(plan) = compiled.plan.clone() else {
        print_diagnostics(&located.display, &compiled);
        return Ok(EXIT_INVALID);
    };
    let mut files = match &args.test {
        Some(t) if Path::new(t).is_file() => vec![CaseFile {
            file: t.clone(),
            text: std::fs::read_to_string(t)?,
        }],
        _ => match builtin::cases(&located) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(EXIT_INVALID);
            }
        },
    };
    if files.is_empty() {
        eprintln!(
            "error: {}: no test cases found (expected tests/{}.<case>.test.json beside the workflow)",
            located.display, located.name
        );
        return Ok(EXIT_INVALID);
    }
    let mut cases = Vec::new();
    for f in &files {
        match parse_case(&f.text, &f.file) {
            Ok(c) => cases.push((f.file.clone(), c)),
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(EXIT_INVALID);
            }
        }
    }
    if let Some(t) = &args.test
        && !Path::new(t).is_file()
    {
        cases.retain(|(file, c)| &c.name == t || file.ends_with(&format!(".{t}.test.json")));
        if cases.is_empty() {
            eprintln!("error: {}: no test case named \"{t}\"", located.display);
            return Ok(EXIT_INVALID);
        }
    }
    files.clear();

    let mut results = Vec::new();
    for (file, case) in &cases {
        results.push(
            run_case(
                plan.clone(),
                registry.clone(),
                case,
                file,
                cfg.project.limits(),
            )
            .await,
        );
    }
    let passed = results.iter().filter(|r| r.passed).count();
    let failed = results.len() - passed;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"workflow": located.display, "total": results.len(), "passed": passed, "failed": failed, "results": results})
            )?
        );
    } else {
        for r in &results {
            println!(
                "{} {}  ({})",
                if r.passed { "✔" } else { "✗" },
                r.name,
                r.file
            );
            for a in r.assertions.iter().filter(|a| !a.pass) {
                println!("    ✗ {}", a.message);
            }
        }
        println!("{passed} passed, {failed} failed");
    }
    Ok(if failed == 0 { EXIT_OK } else { EXIT_FAILED })
}
