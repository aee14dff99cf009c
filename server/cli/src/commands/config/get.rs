//! `vai config get`.

use crate::config::{self, Config};
use crate::exit::{EXIT_FAILED, EXIT_OK};
use clap::Args;

/// Print one setting's effective value and where it comes from (secrets masked).
#[derive(Debug, Args)]
pub(crate) struct GetArgs {
    pub key: String,
}

pub(super) fn run(args: GetArgs) -> anyhow::Result<u8> {
    let k = config::known_key(&args.key)?;
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    match cfg.get(k.name) {
        Some(s) => {
            let shown = if k.secret {
                config::mask(&s.value)
            } else {
                s.value.clone()
            };
            println!("{shown}  ({})", s.origin);
            Ok(EXIT_OK)
        }
        None => {
            eprintln!(
                "{} is not set (set it with `vai config set {} <value>` or {})",
                k.name, k.name, k.env
            );
            Ok(EXIT_FAILED)
        }
    }
}
