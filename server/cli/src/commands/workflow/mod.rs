//! `vai workflow …`: run, validate, list, init, test, tools and fmt.

mod fmt;
mod init;
mod list;
mod run;
mod step;
mod test;
mod tools;
mod validate;

use clap::Subcommand;
use vai_runtime::builtin::{self, Located};
use vai_workflow::{Compiled, Mode, Registry};

#[derive(Debug, Subcommand)]
pub(super) enum WorkflowCommand {
    Run(run::RunArgs),
    Validate(validate::ValidateArgs),
    List(list::ListArgs),
    Init(init::InitArgs),
    Test(test::TestArgs),
    Tools(tools::ToolsArgs),
    Fmt(fmt::FmtArgs),
}

pub(super) async fn dispatch(cmd: WorkflowCommand) -> anyhow::Result<u8> {
    match cmd {
        WorkflowCommand::Run(a) => run::run(a).await,
        WorkflowCommand::Validate(a) => validate::run(a),
        WorkflowCommand::List(a) => list::run(a),
        WorkflowCommand::Init(a) => init::run(a),
        WorkflowCommand::Test(a) => test::run(a).await,
        WorkflowCommand::Tools(a) => tools::run(a),
        WorkflowCommand::Fmt(a) => fmt::run(a),
    }
}

/// Locate and compile a workflow; on failure print what is wrong (naming the file) and return
/// the exit code.
pub(crate) fn load(arg: &str, registry: &Registry, mode: Mode) -> Result<(Located, Compiled), u8> {
    let located = match builtin::locate(arg) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(crate::exit::EXIT_INVALID);
        }
    };
    let value = match vai_workflow::load::parse_json(&located.text) {
        Ok(v) => v,
        Err(d) => {
            eprintln!("error: {}: {d}", located.display);
            return Err(crate::exit::EXIT_INVALID);
        }
    };
    let compiled = vai_workflow::compile(&value, registry, mode);
    Ok((located, compiled))
}

/// Print diagnostics under a heading naming the file.
pub(crate) fn print_diagnostics(display: &str, compiled: &Compiled) {
    for d in &compiled.diagnostics {
        let level = match d.severity {
            vai_workflow::Severity::Error => "error",
            vai_workflow::Severity::Warning => "warning",
            vai_workflow::Severity::Info => "info",
        };
        eprintln!("{level}: {display}: {d}");
    }
}
