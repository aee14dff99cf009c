//! Optional OpenTelemetry export of workflow runs. Off unless `--otlp-endpoint` or
//! `OTEL_EXPORTER_OTLP_ENDPOINT` names a collector ([`Endpoint::resolve`]); then an
//! [`Exporter`] wraps each run's event sink ([`Exporter::sink`]) so its events become one trace
//! (`spans`, with the GenAI conventions in `attributes`), queued without ever blocking the run
//! and sent over OTLP/HTTP (`export`). The engine knows nothing of it.

mod attributes;
mod endpoint;
mod export;
mod sink;
mod spans;

pub use endpoint::{ENV, Endpoint, EndpointError, FLAG};
pub use export::{Delivery, Exporter, Settings, StartError};
