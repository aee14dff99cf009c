//! The exporter: ended spans go into a bounded queue — when it is full the span is dropped and
//! counted, so a run never waits for the collector — and one task sends them in batches over
//! OTLP/HTTP, each request within a timeout. [`Exporter::shutdown`] sends what is left within a
//! bound and tells, once, how many spans never arrived and why.

use crate::endpoint::Endpoint;
use crate::sink::TraceSink;
use async_trait::async_trait;
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{
    ExporterBuildError, Protocol, RetryPolicy, WithExportConfig, WithHttpConfig,
};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SpanData, SpanExporter};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use vai_workflow::EventSink;

/// How many spans wait and how they are sent.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Spans waiting to be sent, at most; a span ending when the queue is full is dropped.
    pub queue: usize,
    /// Spans sent in one request, at most.
    pub batch: usize,
    /// How long a batch waits for more spans before it is sent.
    pub batch_delay: Duration,
    /// One export request, connection and a retry included.
    pub timeout: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            queue: 2048,
            batch: 512,
            batch_delay: Duration::from_secs(1),
            timeout: Duration::from_secs(5),
        }
    }
}

/// Why the exporter could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("trace export needs a tokio runtime")]
    NoRuntime,
    #[error("the HTTP client for {0} could not be built: {1}")]
    Client(Endpoint, reqwest::Error),
    #[error("the OTLP exporter for {0} could not be built: {1}")]
    Exporter(Endpoint, ExporterBuildError),
}

/// What became of the spans sent to one endpoint, told once when the exporter shuts down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub endpoint: String,
    pub sent: u64,
    /// Spans that never reached the collector: the queue was full, an export failed or timed
    /// out, or they were still queued when the process stopped.
    pub dropped: u64,
    /// Why, in words; `None` when nothing was dropped.
    pub reason: Option<String>,
}

impl Delivery {
    /// The one line to show when spans were dropped.
    pub fn warning(&self) -> Option<String> {
        (self.dropped > 0).then(|| {
            format!(
                "traces: {} of {} spans were not delivered to {} ({})",
                self.dropped,
                self.dropped + self.sent,
                self.endpoint,
                self.reason.as_deref().unwrap_or("no reason known")
            )
        })
    }
}

/// Sends the spans of every run wrapped by [`Exporter::sink`] to one collector. Cheap to clone.
#[derive(Clone)]
pub struct Exporter(Arc<Shared>);

struct Shared {
    endpoint: Endpoint,
    settings: Settings,
    queue: mpsc::Sender<SpanData>,
    counts: Arc<Counts>,
    stop: CancellationToken,
    worker: Mutex<Option<JoinHandle<()>>>,
    scope: InstrumentationScope,
}

#[derive(Debug, Default)]
struct Counts {
    /// Taken into the queue.
    queued: AtomicU64,
    /// Refused by a full (or closed) queue.
    refused: AtomicU64,
    sent: AtomicU64,
    failed: AtomicU64,
    /// Why the first failed export failed.
    reason: Mutex<Option<String>>,
    /// The last transport error the HTTP client saw (more telling than the exporter's own).
    transport: Mutex<Option<String>>,
}

impl Exporter {
    /// Start sending to `endpoint`: one task on the current tokio runtime, started here.
    pub fn start(endpoint: Endpoint, settings: Settings) -> Result<Self, StartError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| StartError::NoRuntime)?;
        let counts = Arc::new(Counts::default());
        let exporter = otlp_exporter(&endpoint, settings, counts.clone())?;
        let (queue, spans) = mpsc::channel(settings.queue.max(1));
        let stop = CancellationToken::new();
        let worker = runtime.spawn(work(
            spans,
            exporter,
            counts.clone(),
            stop.clone(),
            settings,
        ));
        Ok(Exporter(Arc::new(Shared {
            endpoint,
            settings,
            queue,
            counts,
            stop,
            worker: Mutex::new(Some(worker)),
            scope: InstrumentationScope::builder("vai")
                .with_version(env!("CARGO_PKG_VERSION"))
                .build(),
        })))
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.0.endpoint
    }

    /// `inner`, also recording run `run_id`'s events as one trace sent here. Every event
    /// reaches `inner` unchanged, and never waits for the collector.
    pub fn sink(&self, inner: Arc<dyn EventSink>, run_id: &str) -> Arc<dyn EventSink> {
        let exporter = self.clone();
        Arc::new(TraceSink::new(
            inner,
            run_id,
            Arc::new(move |span| exporter.send(span)),
            self.0.scope.clone(),
        ))
    }

    /// Queue `span`, or count it dropped when the queue is full.
    pub(crate) fn send(&self, span: SpanData) {
        let counts = &self.0.counts;
        match self.0.queue.try_send(span) {
            Ok(()) => counts.queued.fetch_add(1, Ordering::Relaxed),
            Err(_) => counts.refused.fetch_add(1, Ordering::Relaxed),
        };
    }

    /// Send what is queued, taking at most `within`, stop, and tell what became of the spans.
    /// Spans ending later are dropped (and not told).
    pub async fn shutdown(&self, within: Duration) -> Delivery {
        self.0.stop.cancel();
        let worker = self
            .0
            .worker
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let mut late = false;
        if let Some(mut worker) = worker
            && tokio::time::timeout(within, &mut worker).await.is_err()
        {
            worker.abort();
            late = true;
        }
        self.delivery(late)
    }

    fn delivery(&self, late: bool) -> Delivery {
        let c = &self.0.counts;
        let (queued, refused) = (
            c.queued.load(Ordering::Relaxed),
            c.refused.load(Ordering::Relaxed),
        );
        let (sent, failed) = (
            c.sent.load(Ordering::Relaxed),
            c.failed.load(Ordering::Relaxed),
        );
        let unsent = queued.saturating_sub(sent + failed);
        let mut reasons = Vec::new();
        if failed > 0 {
            let why = c.reason.lock().unwrap_or_else(PoisonError::into_inner);
            reasons.push(why.clone().unwrap_or_else(|| "the export failed".into()));
        }
        if refused > 0 {
            reasons.push(format!(
                "{refused} dropped because {} spans were already waiting to be sent",
                self.0.settings.queue
            ));
        }
        if unsent > 0 || late {
            reasons.push(format!("{unsent} still waiting when vai stopped"));
        }
        Delivery {
            endpoint: self.0.endpoint.to_string(),
            sent,
            dropped: refused + failed + unsent,
            reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
        }
    }
}

/// The OTLP/HTTP exporter to `endpoint`: protobuf bodies, one retry, every request within
/// `settings.timeout`, no redirects (spans go to the configured collector only).
fn otlp_exporter(
    endpoint: &Endpoint,
    settings: Settings,
    counts: Arc<Counts>,
) -> Result<opentelemetry_otlp::SpanExporter, StartError> {
    vai_providers::net::install_crypto_provider();
    let client = reqwest::Client::builder()
        .connect_timeout(settings.timeout.min(Duration::from_secs(2)))
        .timeout(settings.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| StartError::Client(endpoint.clone(), e))?;
    let mut exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(endpoint.as_str())
        .with_protocol(Protocol::HttpBinary)
        .with_timeout(settings.timeout)
        .with_retry_policy(RetryPolicy::recommended().with_max_retries(1))
        .with_http_client(Telling {
            inner: client,
            counts,
        })
        .build()
        .map_err(|e| StartError::Exporter(endpoint.clone(), e))?;
    exporter.set_resource(&resource());
    Ok(exporter)
}

/// `service.name` is `vai` unless `OTEL_SERVICE_NAME` says otherwise; `OTEL_RESOURCE_ATTRIBUTES`
/// is read as the specification says.
fn resource() -> Resource {
    let named = std::env::var("OTEL_SERVICE_NAME").is_ok_and(|v| !v.trim().is_empty());
    let builder = Resource::builder();
    let builder = if named {
        builder
    } else {
        builder.with_service_name("vai")
    };
    builder
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
        .build()
}

/// reqwest, remembering the cause of its last transport error ("Connection refused") for the
/// report; the exporter's own message says only "network error".
#[derive(Debug)]
struct Telling {
    inner: reqwest::Client,
    counts: Arc<Counts>,
}

#[async_trait]
impl HttpClient for Telling {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let result = self.inner.send_bytes(request).await;
        if let Err(e) = &result {
            let mut cause: &dyn std::error::Error = e.as_ref();
            while let Some(next) = cause.source() {
                cause = next;
            }
            *self
                .counts
                .transport
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(cause.to_string());
        }
        result
    }
}

/// The sending task: a batch goes when it is full or `batch_delay` after its first span; on
/// stop, everything queued goes, in batches, and the queue takes nothing more.
async fn work(
    mut spans: mpsc::Receiver<SpanData>,
    exporter: opentelemetry_otlp::SpanExporter,
    counts: Arc<Counts>,
    stop: CancellationToken,
    settings: Settings,
) {
    let size = settings.batch.max(1);
    loop {
        let first = tokio::select! {
            biased;
            () = stop.cancelled() => None,
            span = spans.recv() => span,
        };
        let Some(first) = first else { break };
        let mut batch = vec![first];
        let wait = tokio::time::sleep(settings.batch_delay);
        tokio::pin!(wait);
        while batch.len() < size {
            tokio::select! {
                biased;
                () = stop.cancelled() => break,
                () = &mut wait => break,
                span = spans.recv() => match span {
                    Some(span) => batch.push(span),
                    None => break,
                },
            }
        }
        export(&exporter, batch, &counts, settings.timeout).await;
    }
    spans.close();
    let mut batch = Vec::new();
    while let Some(span) = spans.recv().await {
        batch.push(span);
        if batch.len() == size {
            export(
                &exporter,
                std::mem::take(&mut batch),
                &counts,
                settings.timeout,
            )
            .await;
        }
    }
    if !batch.is_empty() {
        export(&exporter, batch, &counts, settings.timeout).await;
    }
}

/// Send one batch within `timeout`, counting it sent or failed.
async fn export(
    exporter: &opentelemetry_otlp::SpanExporter,
    batch: Vec<SpanData>,
    counts: &Counts,
    timeout: Duration,
) {
    let n = batch.len() as u64;
    let outcome = tokio::time::timeout(timeout, exporter.export(batch)).await;
    // The transport error of this batch's requests, if any, and none left for the next.
    let transport = counts
        .transport
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let failure = match outcome {
        Ok(Ok(())) => {
            counts.sent.fetch_add(n, Ordering::Relaxed);
            return;
        }
        Ok(Err(e)) => transport.unwrap_or_else(|| e.to_string()),
        Err(_) => format!(
            "the collector did not answer within {} ms",
            timeout.as_millis()
        ),
    };
    counts.failed.fetch_add(n, Ordering::Relaxed);
    let mut reason = counts.reason.lock().unwrap_or_else(PoisonError::into_inner);
    reason.get_or_insert(failure);
}
