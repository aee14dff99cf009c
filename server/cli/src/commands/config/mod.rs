//! `vai config …`: read and change settings (secrets are masked).

mod get;
mod list;
mod set;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub(super) enum ConfigCommand {
    Set(set::SetArgs),
    Unset(set::UnsetArgs),
    Get(get::GetArgs),
    List(list::ListArgs),
}

pub(super) fn dispatch(cmd: ConfigCommand) -> anyhow::Result<u8> {
    match cmd {
        ConfigCommand::Set(a) => set::run(a),
        ConfigCommand::Unset(a) => set::unset(a),
        ConfigCommand::Get(a) => get::run(a),
        ConfigCommand::List(a) => list::run(a),
    }
}
