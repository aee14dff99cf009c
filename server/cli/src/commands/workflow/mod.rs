//! `vai workflow …`: run, validate, list, init, test, tools and fmt.

mod fmt;
mod init;
mod list;
mod load;
mod run;
mod step;
mod test;
mod tools;
mod validate;

pub(super) use load::{compile_located, print_diagnostics};

use clap::Subcommand;

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
