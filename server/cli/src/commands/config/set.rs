//! `vai config set` and `vai config unset`.

use crate::config;
use crate::exit::EXIT_OK;
use clap::Args;
use serde_json::Value;

/// Save a setting in the user config (~/.vai/config.json, readable by you only).
#[derive(Debug, Args)]
pub(crate) struct SetArgs {
    /// Setting name, e.g. api-key, mongodb-uri, llm-provider, default-db (see `vai config list`).
    pub key: String,
    /// The value.
    pub value: String,
}

/// Remove a setting from the user config.
#[derive(Debug, Args)]
pub(crate) struct UnsetArgs {
    pub key: String,
}

pub(super) fn run(args: SetArgs) -> anyhow::Result<u8> {
    let k = config::known_key(&args.key)?;
    if k.name == "llm-provider" && !["anthropic", "openai", "ollama"].contains(&args.value.as_str())
    {
        anyhow::bail!(
            "llm-provider must be anthropic, openai or ollama, not \"{}\"",
            args.value
        );
    }
    let path = config::user_config_path();
    let mut user = config::read_user_config(&path)?;
    user.insert(k.config_key.to_string(), Value::String(args.value.clone()));
    config::write_user_config(&path, &user)?;
    let shown = if k.secret {
        config::mask(&args.value)
    } else {
        args.value
    };
    println!("{} = {shown}  (saved in {})", k.name, path.display());
    if std::env::var_os(k.env).is_some() {
        eprintln!(
            "note: {} is set in the environment and takes precedence over this value",
            k.env
        );
    }
    Ok(EXIT_OK)
}

pub(super) fn unset(args: UnsetArgs) -> anyhow::Result<u8> {
    let k = config::known_key(&args.key)?;
    let path = config::user_config_path();
    let mut user = config::read_user_config(&path)?;
    if user.remove(k.config_key).is_some() {
        config::write_user_config(&path, &user)?;
        println!("{} removed from {}", k.name, path.display());
    } else {
        println!("{} was not set in {}", k.name, path.display());
    }
    Ok(EXIT_OK)
}
