//! `vai mcp [--http]`: the composition root of the MCP server — configuration, the tools wired
//! to the configured providers (as the playground's are), sample seeding before the store is
//! first used — then stdio or streamable HTTP until the client leaves or a signal arrives.

use super::server::{read_only, server};
use crate::exit::{EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK};
use crate::serving::{listen, stop_signal, url_host};
use crate::traces::{TraceArgs, traced};
use crate::{app, config::Config};
use clap::Args;
use std::future::Future;
use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use vai_mcp::http::{BearerKey, HttpOptions, PATH};
use vai_mcp::{BeforeTool, WithLlm};
use vai_otlp::Exporter;
use vai_runtime::BeforeRun;

/// The environment variable holding the HTTP transport's bearer key.
const KEY_ENV: &str = "VAI_MCP_SERVER_KEY";

#[derive(Debug, Args)]
pub(super) struct ServeArgs {
    /// Serve streamable HTTP at /mcp instead of stdio.
    #[arg(long)]
    http: bool,
    /// Port for --http; 0 picks a free one.
    #[arg(long, default_value_t = 3100, requires = "http")]
    port: u16,
    /// Address for --http. Anything but loopback needs the bearer key (VAI_MCP_SERVER_KEY, or one
    /// generated and printed) and exposes your providers to the network.
    #[arg(long, default_value = "127.0.0.1", requires = "http")]
    host: IpAddr,
    /// Offer only tools that change nothing: no saving, renaming or deleting workflows, no
    /// workflow runs or tool calls that write (also VAI_MCP_READ_ONLY=1).
    #[arg(long)]
    read_only: bool,
    /// Let `http` steps reach HOST (`name`, `name:port` or an IP address) even at a loopback,
    /// private or link-local address; repeatable. Adds to allowedHosts in .vai.json.
    #[arg(long = "allow-host", value_name = "HOST")]
    allow_hosts: Vec<String>,
    #[command(flatten)]
    traces: TraceArgs,
}

pub(super) async fn run(args: ServeArgs) -> anyhow::Result<u8> {
    let trace_args = args.traces.clone();
    // The last spans are sent, and a loss told once (on stderr), when the server stops.
    traced(&trace_args, |exporter| serve(args, exporter)).await
}

async fn serve(args: ServeArgs, exporter: Option<Exporter>) -> anyhow::Result<u8> {
    // Everything this process says goes to stderr: in stdio mode stdout is the protocol.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .with_target(false)
        .try_init();
    let cwd = std::env::current_dir()?;
    let mut cfg = Config::load(&cwd, &[])?;
    cfg.allow_hosts = args.allow_hosts.clone();
    // Journaled where the project keeps its runs, like every other run: one that waits
    // survives a restart of the client's server (or is answered from another machine).
    let journals = crate::commands::runs::server_store(&cfg)?;
    let live = match app::live(&cfg) {
        Ok(live) => Arc::new(live),
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(EXIT_INVALID);
        }
    };
    let (before_run, before_tool) = seeding(live.clone());
    let server = server(
        &cfg,
        &cwd,
        live.registry.clone(),
        read_only(args.read_only, &cfg),
        journals,
        Some(before_run),
        Some(before_tool),
        with_client_llm(&cfg, &live),
    )?;
    if let Some(exporter) = exporter {
        eprintln!("traces: each run is sent to {}", exporter.endpoint());
        let wrap = move |run_id: &str, sink| exporter.sink(sink, run_id);
        server.runs().wrap_sinks(Arc::new(wrap));
    }
    let stop = stop_signal();
    if args.http {
        return http(args, server, stop).await;
    }
    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    let signalled = tokio::spawn(async move {
        let code = stop.await;
        on_signal.cancel();
        code
    });
    let served = server.serve_stdio(cancel.clone()).await;
    server.runs().shutdown().await;
    if cancel.is_cancelled() {
        return Ok(signalled.await.unwrap_or(EXIT_INTERRUPTED));
    }
    if let Err(e) = served {
        eprintln!("error: the MCP connection failed: {e}");
        return Ok(EXIT_INVALID);
    }
    signalled.abort();
    Ok(CLIENT_GONE)
}

async fn http(
    args: ServeArgs,
    server: vai_mcp::McpServer,
    stop: impl Future<Output = u8> + Send + 'static,
) -> anyhow::Result<u8> {
    let loopback = args.host.is_loopback();
    let key = match std::env::var(KEY_ENV).ok().filter(|k| !k.is_empty()) {
        Some(given) => match BearerKey::parse(&given) {
            Ok(key) => Some(key),
            Err(e) => {
                eprintln!("error: {KEY_ENV}: {e}");
                return Ok(EXIT_INVALID);
            }
        },
        None if loopback => None,
        None => Some(BearerKey::generate()?),
    };
    let Some(listener) = listen(args.host, args.port).await else {
        return Ok(EXIT_INVALID);
    };
    let port = listener.local_addr()?.port();
    let mut options = HttpOptions::new(port);
    options.key = key.clone();
    if !loopback && !args.host.is_unspecified() {
        options.extra_hosts.push(url_host(args.host));
    }
    if !loopback {
        eprintln!(
            "warning: listening on {} — anyone who can reach this address and holds the key can run workflows with your configured providers",
            args.host
        );
    }
    let shown = if args.host.is_unspecified() {
        "127.0.0.1".to_string()
    } else {
        url_host(args.host)
    };
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "vai mcp: http://{shown}:{port}{PATH}")?;
        out.flush()?;
    }
    match (&key, std::env::var(KEY_ENV).is_ok()) {
        (Some(key), false) => eprintln!(
            "bearer key (send as Authorization: Bearer <key>; set {KEY_ENV} to choose one): {}",
            key.as_str()
        ),
        (Some(_), true) => {
            eprintln!("requests must carry the key in {KEY_ENV} as Authorization: Bearer <key>");
        }
        (None, _) => eprintln!("no key asked on loopback; set {KEY_ENV} to require one"),
    }
    eprintln!("press Ctrl-C to stop");
    let runs = server.runs().clone();
    let (code_tx, code_rx) = tokio::sync::oneshot::channel::<u8>();
    let shutdown = async move {
        let code = stop.await;
        eprintln!("\nstopping: cancelling running workflows…");
        runs.shutdown().await;
        let _ = code_tx.send(code);
    };
    vai_mcp::http::serve(listener, server, options, shutdown).await?;
    Ok(code_rx.await.unwrap_or(EXIT_OK))
}

/// The hooks that seed the sample before a run or a call that needs the store.
fn seeding(live: Arc<app::App>) -> (BeforeRun, BeforeTool) {
    let seed = crate::serving::sample_seeding(live.clone());
    let for_runs = seed.clone();
    let live_for_runs = live.clone();
    let before_run: BeforeRun = Arc::new(move |plan| {
        if live_for_runs.needs_store(plan) {
            for_runs()
        } else {
            Box::pin(async {})
        }
    });
    let before_tool: BeforeTool = Arc::new(move |tool| {
        if live.uses_store(tool) {
            seed()
        } else {
            Box::pin(async {})
        }
    });
    (before_run, before_tool)
}

/// With no LLM configured, the registry of `live`'s tools with another LLM in its place: the
/// client's model, for `generate` steps of runs its client starts (sampling). `None` when vai
/// has a configured LLM of its own; the small local one gives way to the client's model.
fn with_client_llm(cfg: &Config, live: &app::App) -> Option<WithLlm> {
    let configured = live.providers.llm.as_ref();
    if configured.is_some_and(|llm| llm.name() != vai_providers::local::llm::LocalLlm::NAME) {
        return None;
    }
    let providers = live.providers.clone();
    let policy = app::http_policy(cfg);
    Some(Arc::new(move |llm| {
        let mut with_llm = (*providers).clone();
        with_llm.llm = Some(llm);
        Arc::new(vai_tools::registry(Arc::new(with_llm), policy.clone()))
    }))
}

/// Exit code when the server stopped because its client left.
const CLIENT_GONE: u8 = EXIT_OK;
