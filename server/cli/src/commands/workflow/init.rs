//! `vai workflow init`: scaffold a new workflow file (and a first test case).

use crate::exit::{EXIT_INVALID, EXIT_OK};
use clap::{Args, ValueEnum};
use serde_json::Value;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use vai_workflow::starters;

/// Create a new workflow file. Asks for what is missing when run in a terminal.
#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// Workflow name (free text; the file name is derived from it).
    #[arg(long)]
    pub name: Option<String>,
    /// Output file (default: <slug>.vai-workflow.json in the current directory).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// What the workflow starts from.
    #[arg(long, value_enum)]
    pub template: Option<Starter>,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
}

/// Starting points for a new workflow (`vai_workflow::starters` holds what each one is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Starter {
    /// Vector search with reranking.
    Search,
    /// Search, then answer with an LLM from the results.
    Rag,
    /// Chunk and ingest a text.
    Ingest,
}

impl From<Starter> for starters::Starter {
    fn from(starter: Starter) -> Self {
        match starter {
            Starter::Search => starters::Starter::Search,
            Starter::Rag => starters::Starter::Rag,
            Starter::Ingest => starters::Starter::Ingest,
        }
    }
}

pub(super) fn run(args: InitArgs) -> anyhow::Result<u8> {
    let interactive = std::io::stdin().is_terminal();
    let name = match args.name {
        Some(n) => n,
        None if interactive => ask("Workflow name", "My workflow")?,
        None => {
            eprintln!("error: --name is required when not running in a terminal");
            return Ok(EXIT_INVALID);
        }
    };
    if name.trim().is_empty() {
        eprintln!("error: the workflow name cannot be empty");
        return Ok(EXIT_INVALID);
    }
    let starter = match args.template {
        Some(s) => s,
        None if interactive => match ask("Start from: search, rag or ingest", "search")?.trim() {
            "rag" => Starter::Rag,
            "ingest" => Starter::Ingest,
            "search" | "" => Starter::Search,
            other => {
                eprintln!("error: unknown starting point \"{other}\" (search, rag or ingest)");
                return Ok(EXIT_INVALID);
            }
        },
        None => Starter::Search,
    };
    let slug = vai_runtime::save::stem_for(&name).unwrap_or_else(|| "workflow".into());
    let output = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("{slug}.vai-workflow.json")));
    if output.exists() && !args.force {
        eprintln!(
            "error: {} already exists (use --force to replace it)",
            output.display()
        );
        return Ok(EXIT_INVALID);
    }
    let starter = starters::Starter::from(starter);
    let (workflow, case) = (starter.workflow(&name), starter.test_case());
    write_json(&output, &workflow)?;
    println!("Created {}", output.display());
    let stem = vai_workflow::load::stem(&output);
    let tests_dir = output.parent().unwrap_or(Path::new(".")).join("tests");
    let case_path = tests_dir.join(format!("{stem}.basic.test.json"));
    if !case_path.exists() {
        std::fs::create_dir_all(&tests_dir)?;
        write_json(&case_path, &case)?;
        println!("Created {}", case_path.display());
    }
    println!(
        "\nNext:\n  vai workflow validate {0}\n  vai workflow test {0}\n  vai workflow run {0} --input query=\"…\" --dry-run",
        output.display()
    );
    Ok(EXIT_OK)
}

fn ask(question: &str, default: &str) -> anyhow::Result<String> {
    eprint!("{question} [{default}]: ");
    std::io::stderr().flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let line = line.trim();
    Ok(if line.is_empty() {
        default.to_string()
    } else {
        line.to_string()
    })
}

fn write_json(path: &Path, value: &Value) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    vai_workflow::fsutil::replace_file(path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
