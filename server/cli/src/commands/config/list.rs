//! `vai config list`.

use crate::config::{self, Config, KEYS, Key};
use crate::exit::EXIT_OK;
use clap::Args;
use serde_json::json;

/// List every setting with its effective value and origin (secrets masked).
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One setting as shown: its value (masked when secret) and where it came from.
struct Row {
    key: &'static Key,
    shown: Option<(String, String)>,
}

pub(super) fn run(args: ListArgs) -> anyhow::Result<u8> {
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    let rows: Vec<Row> = KEYS
        .iter()
        .map(|key| Row {
            key,
            shown: cfg.get(key.name).map(|s| {
                let value = if key.secret {
                    config::mask(&s.value)
                } else {
                    s.value.clone()
                };
                (value, s.origin.to_string())
            }),
        })
        .collect();
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                let (value, origin) = r.shown.clone().unzip();
                json!({"key": r.key.name, "value": value, "origin": origin, "env": r.key.env})
            })
            .collect();
        let out = json!({"settings": list, "userConfig": cfg.user_config_path, "project": cfg.project.path});
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(EXIT_OK);
    }
    let width = KEYS.iter().map(|k| k.name.len()).max().unwrap_or(0);
    for r in rows {
        let name = r.key.name;
        match r.shown {
            Some((value, origin)) => println!("{name:<width$}  {value}  ({origin})"),
            None => println!("{name:<width$}  -  ({}; {})", r.key.help, r.key.env),
        }
    }
    println!("\nuser config: {}", cfg.user_config_path.display());
    if let Some(p) = &cfg.project.path {
        println!("project:     {}", p.display());
    }
    Ok(EXIT_OK)
}
