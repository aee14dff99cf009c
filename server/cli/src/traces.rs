//! `--otlp-endpoint`, shared by the commands that run workflows (`vai workflow run`, `vai runs
//! resume|rerun`, `vai playground`, `vai mcp`): the exporter it (or `OTEL_EXPORTER_OTLP_ENDPOINT`)
//! turns on, started before the first run and flushed when the command ends. Neither set: no
//! exporter, no task, nothing sent.

use crate::exit::EXIT_INVALID;
use clap::Args;
use std::future::Future;
use std::time::Duration;
use vai_otlp::{ENV, Endpoint, Exporter, Settings};

/// How long the end of the process may wait for the last spans to be sent.
const FLUSH_WITHIN: Duration = Duration::from_secs(3);

#[derive(Debug, Clone, Args)]
pub(crate) struct TraceArgs {
    /// Send each run's trace to this OpenTelemetry collector, over OTLP/HTTP (e.g.
    /// http://localhost:4318, or its /v1/traces URL); also read from
    /// OTEL_EXPORTER_OTLP_ENDPOINT. Off by default.
    #[arg(long = "otlp-endpoint", value_name = "URL")]
    pub otlp_endpoint: Option<String>,
}

impl TraceArgs {
    /// The exporter the flag or the environment asks for, started; `None` when neither does.
    /// `Err` is the message to show (the flag or variable, its value, and what is wrong).
    pub(crate) fn start(&self) -> Result<Option<Exporter>, String> {
        let env = std::env::var(ENV).ok();
        let endpoint = Endpoint::resolve(self.otlp_endpoint.as_deref(), env.as_deref())
            .map_err(|e| e.to_string())?;
        endpoint
            .map(|e| Exporter::start(e, Settings::default()))
            .transpose()
            .map_err(|e| e.to_string())
    }
}

/// Send what is left of `exporter`'s spans; the one line telling how many were lost, if any.
pub(crate) async fn finish(exporter: Option<Exporter>) -> Option<String> {
    exporter?.shutdown(FLUSH_WITHIN).await.warning()
}

/// Run a command's `body` with the exporter `args` ask for, then send the last spans and tell a
/// loss once, after the command's own output. A bad endpoint is refused before anything runs.
pub(crate) async fn traced<F, Fut>(args: &TraceArgs, body: F) -> anyhow::Result<u8>
where
    F: FnOnce(Option<Exporter>) -> Fut,
    Fut: Future<Output = anyhow::Result<u8>>,
{
    let exporter = match args.start() {
        Ok(exporter) => exporter,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    let code = body(exporter.clone()).await;
    if let Some(warning) = finish(exporter).await {
        eprintln!("warning: {warning}");
    }
    code
}
