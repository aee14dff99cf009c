//! `vai config list`.

use crate::commands::EXIT_OK;
use crate::config::{self, Config, KEYS};
use clap::Args;
use serde_json::json;

/// List every setting with its effective value and origin (secrets masked).
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ListArgs) -> anyhow::Result<u8> {
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    let rows: Vec<(&str, Option<String>, Option<String>, &str, &str)> = KEYS
        .iter()
        .map(|k| {
            let s = cfg.get(k.name);
            let value = s.map(|s| {
                if k.secret {
                    config::mask(&s.value)
                } else {
                    s.value.clone()
                }
            });
            (
                k.name,
                value,
                s.map(|s| s.origin.to_string()),
                k.env,
                k.help,
            )
        })
        .collect();
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|(n, v, o, e, _)| json!({"key": n, "value": v, "origin": o, "env": e}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"settings": list, "userConfig": cfg.user_config_path, "project": cfg.project.path})
            )?
        );
        return Ok(EXIT_OK);
    }
    let width = KEYS.iter().map(|k| k.name.len()).max().unwrap_or(0);
    for (name, value, origin, env, help) in rows {
        match (value, origin) {
            (Some(v), Some(o)) => println!("{name:<width$}  {v}  ({o})"),
            _ => println!("{name:<width$}  -  ({help}; {env})"),
        }
    }
    println!("\nuser config: {}", cfg.user_config_path.display());
    if let Some(p) = &cfg.project.path {
        println!("project:     {}", p.display());
    }
    Ok(EXIT_OK)
}
