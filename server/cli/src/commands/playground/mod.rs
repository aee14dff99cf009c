//! `vai playground`: serve the web app and its API on this machine, behind a per-process access
//! token and within the server's limits.

mod limits;

use crate::app::{self, ChatHistory};
use crate::config::Config;
use crate::exit::{EXIT_INVALID, EXIT_OK};
use crate::serving::{listen, sample_seeding, stop_signal, url_host};
use crate::traces::{TraceArgs, traced};
use clap::Args;
use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use vai_contract::WorkflowSource;
use vai_http::{AccessToken, AppState, ServerSettings};
use vai_otlp::Exporter;
use vai_runtime::tool_schema::BeforeTool;
use vai_runtime::{BeforeRun, FILE_SUFFIX, Library, id_of};

/// The environment variable `--token` falls back to.
const TOKEN_ENV: &str = "VAI_PLAYGROUND_TOKEN";

/// Open the playground in the browser: draw, run, inspect and edit workflows, with live
/// per-step status, and chat with the knowledge base. Serves on 127.0.0.1 only, unless --host
/// says otherwise.
#[derive(Debug, Args)]
pub(super) struct PlaygroundArgs {
    /// A workflow to open: the name of a built-in or example, or a `*.vai-workflow.json` file
    /// in the current directory.
    pub workflow: Option<String>,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 3333)]
    pub port: u16,
    /// Address to listen on. Anything but loopback exposes your providers to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Do not open a browser.
    #[arg(long)]
    pub no_open: bool,
    /// Let `http` steps reach HOST (`name`, `name:port` or an IP address) even at a loopback,
    /// private or link-local address; repeatable. Adds to allowedHosts in .vai.json.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// The access token every API request must carry (16–256 letters, digits, `-_.~`), for
    /// scripts; also read from VAI_PLAYGROUND_TOKEN. By default a random one is made at each
    /// start and put in the printed URL.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    #[command(flatten)]
    pub limits: limits::LimitArgs,
    #[command(flatten)]
    pub traces: TraceArgs,
}

pub(super) async fn run(args: PlaygroundArgs) -> anyhow::Result<u8> {
    let traces = args.traces.clone();
    traced(&traces, |exporter| serve(args, exporter)).await
}

/// Serve the playground until it is stopped, each run's spans going to `exporter` when there is
/// one.
async fn serve(args: PlaygroundArgs, exporter: Option<Exporter>) -> anyhow::Result<u8> {
    let given = args
        .token
        .clone()
        .or_else(|| std::env::var(TOKEN_ENV).ok().filter(|t| !t.is_empty()));
    let token = match given
        .as_deref()
        .map_or_else(AccessToken::generate, AccessToken::parse)
    {
        Ok(token) => token,
        Err(e) => {
            eprintln!("error: --token (or {TOKEN_ENV}): {e}");
            return Ok(EXIT_INVALID);
        }
    };
    if let Some(warning) = limits::raise_fd_limit() {
        eprintln!("warning: {warning}");
    }
    let cwd = std::env::current_dir()?;
    let mut cfg = Config::load(&cwd, &[])?;
    cfg.allow_hosts = args.allow_hosts.clone();
    // Before a port is taken: a shared store configured wrongly stops the playground here.
    let run_journals = crate::commands::runs::server_store(&cfg)?;
    let library = vai_runtime::builtin::library(Some(&cwd))?;
    let open_id = match &args.workflow {
        None => None,
        Some(name) => match workflow_id(&library, name) {
            Some(id) => Some(id),
            None => {
                eprintln!(
                    "error: no built-in, example or *{FILE_SUFFIX} file in this directory named \"{name}\" (see `vai workflow list`)"
                );
                return Ok(EXIT_INVALID);
            }
        },
    };

    let Some(listener) = listen(args.host, args.port).await else {
        return Ok(EXIT_INVALID);
    };
    let port = listener.local_addr()?.port();
    if !args.host.is_loopback() {
        eprintln!(
            "warning: listening on {} — anyone who can reach this address can run workflows with your configured providers",
            args.host
        );
    }

    let live = match app::live(&cfg) {
        Ok(live) => Arc::new(live),
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(EXIT_INVALID);
        }
    };
    let seed = sample_seeding(live.clone());
    // Seed in the background so the first run rarely waits; runs that touch the store wait for
    // it if it has not finished (it is a no-op once the sample is in place), other runs never
    // do. It starts a moment late so the first page load does not compete with the embedding
    // model for the CPU.
    let background = seed.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        background().await;
    });
    let for_chat = seed.clone();
    let (live_for_runs, live_for_tools) = (live.clone(), live.clone());
    let before_run: BeforeRun = Arc::new(move |plan| {
        if live_for_runs.needs_store(plan) {
            seed()
        } else {
            Box::pin(async {})
        }
    });
    // The Chat panel's tools wait for the sample knowledge base the same way.
    let before_tool: BeforeTool = Arc::new(move |tool| {
        if live_for_tools.uses_store(tool) {
            for_chat()
        } else {
            Box::pin(async {})
        }
    });
    let chat = match app::chat_engine(&cfg, &live, ChatHistory::Kept) {
        Ok(engine) => Some(engine.with_before_tool(before_tool)),
        Err(e) => {
            eprintln!("warning: the Chat panel is off: {e:#}");
            None
        }
    };

    let extra_hosts = if args.host.is_loopback() || args.host.is_unspecified() {
        Vec::new()
    } else {
        vec![url_host(args.host)]
    };
    let state = AppState::new(ServerSettings {
        registry: live.registry.clone(),
        library,
        config: app::config_status(&cfg),
        port,
        extra_hosts,
        before_run: Some(before_run),
        token: token.clone(),
        limits: args.limits.limits(),
        run_limits: cfg.project.limits(),
        chat,
        chat_options: app::chat_options(&cfg, &live),
        run_journals,
        pricing: live.providers.pricing.clone(),
    });
    if let Some(exporter) = exporter {
        eprintln!("traces: each run is sent to {}", exporter.endpoint());
        let wrap = move |run_id: &str, sink| exporter.sink(sink, run_id);
        state.runs().wrap_sinks(Arc::new(wrap));
    }

    let shown_host = if args.host.is_unspecified() {
        "127.0.0.1".to_string()
    } else {
        url_host(args.host)
    };
    // The page trades the token for a cookie and drops it from the address bar.
    let mut url = format!("http://{shown_host}:{port}/?token={}", token.as_str());
    if let Some(id) = &open_id {
        url.push_str("&workflow=");
        url.push_str(&encode_query(id));
    }
    let stop = stop_signal();
    {
        // The e2e tests read this line to find the server: keep it exactly so, and flushed.
        let mut out = std::io::stdout().lock();
        writeln!(out, "vai playground: {url}")?;
        out.flush()?;
    }
    eprintln!("press Ctrl-C to stop");
    if !args.no_open {
        open_browser(&url);
    }

    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .with_target(false)
        .try_init();

    let runs = state.runs().clone();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<u8>();
    tokio::spawn(async move {
        let code = stop.await;
        eprintln!("\nstopping: cancelling running workflows…");
        // Sockets close and runs report how they ended before the server stops.
        runs.shutdown().await;
        let _ = stop_tx.send(code);
    });
    let (code_tx, code_rx) = tokio::sync::oneshot::channel::<u8>();
    let shutdown = async move {
        let code = stop_rx.await.unwrap_or(EXIT_OK);
        let _ = code_tx.send(code);
    };
    // The runs have ended when this returns: `traced` then sends their last spans.
    vai_http::serve(listener, state, shutdown).await?;
    Ok(code_rx.await.unwrap_or(EXIT_OK))
}

/// The library id of a command-line workflow argument: a file in the current directory (with
/// or without its suffix), else a built-in, else an example.
fn workflow_id(library: &Library, name: &str) -> Option<String> {
    let file = if name.ends_with(FILE_SUFFIX) {
        name.to_string()
    } else {
        format!("{name}{FILE_SUFFIX}")
    };
    let listed = library.list();
    let file_id = id_of(WorkflowSource::File, &file);
    if listed.iter().any(|w| w.id == file_id) {
        return Some(file_id);
    }
    let stem = name.strip_suffix(".json").unwrap_or(name);
    [WorkflowSource::Builtin, WorkflowSource::Example]
        .into_iter()
        .map(|s| id_of(s, stem))
        .find(|id| listed.iter().any(|w| &w.id == id))
}

/// Percent-encode a query value, keeping what is readable and safe (`builtin:rag-chat`).
fn encode_query(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Ask the desktop to open `url`; without one (a server, CI) nothing happens.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Ok(mut child) = command.spawn() {
        // Reap it so it does not linger as a zombie.
        std::thread::spawn(move || child.wait());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(
            encode_query("builtin:rag-chat"),
            "builtin:rag-chat".to_string()
        );
        assert_eq!(
            encode_query("file:my flow.vai-workflow.json"),
            "file:my%20flow.vai-workflow.json"
        );
    }

    #[test]
    fn ipv6_hosts_are_bracketed() {
        assert_eq!(url_host("::1".parse().unwrap()), "[::1]");
        assert_eq!(url_host("127.0.0.1".parse().unwrap()), "127.0.0.1");
    }
}
