//! The OTLP collector of the tests: a loopback axum server that decodes the spans it is sent,
//! and a loopback URL nothing listens at.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::status::StatusCode as SpanStatus;
use prost::Message;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Spans received, with the `service.name` of the resource each came under.
pub(crate) type Received = Arc<Mutex<Vec<(String, Span)>>>;

/// A loopback OTLP/HTTP collector; `delay` holds every answer back that long.
pub(crate) async fn collector(delay: Duration) -> (String, Received) {
    let received: Received = Arc::default();
    let app = Router::new()
        .route("/v1/traces", post(take))
        .with_state((received.clone(), delay));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1/traces", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, received)
}

async fn take(
    State((received, delay)): State<(Received, Duration)>,
    body: axum::body::Bytes,
) -> StatusCode {
    tokio::time::sleep(delay).await;
    let Ok(request) = ExportTraceServiceRequest::decode(body) else {
        return StatusCode::BAD_REQUEST;
    };
    let mut received = received.lock().unwrap();
    for resource in request.resource_spans {
        let service = resource
            .resource
            .iter()
            .flat_map(|r| &r.attributes)
            .find(|kv| kv.key == "service.name")
            .and_then(|kv| kv.value.as_ref()?.value.as_ref())
            .map(|v| format!("{v:?}"))
            .unwrap_or_default();
        for scope in resource.scope_spans {
            for span in scope.spans {
                received.push((service.clone(), span));
            }
        }
    }
    StatusCode::OK
}

/// A loopback URL nothing listens at.
pub(crate) fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1/traces", listener.local_addr().unwrap());
    drop(listener);
    url
}

pub(crate) fn attr(span: &Span, key: &str) -> Option<String> {
    let value = span
        .attributes
        .iter()
        .find(|kv| kv.key == key)?
        .value
        .as_ref()?;
    Some(match value.value.as_ref()? {
        AnyValue::StringValue(s) => s.clone(),
        AnyValue::IntValue(i) => i.to_string(),
        AnyValue::DoubleValue(d) => d.to_string(),
        AnyValue::BoolValue(b) => b.to_string(),
        other => format!("{other:?}"),
    })
}

pub(crate) fn named<'a>(spans: &'a [Span], name: &str) -> Vec<&'a Span> {
    spans.iter().filter(|s| s.name == name).collect()
}

pub(crate) fn one<'a>(spans: &'a [Span], name: &str) -> &'a Span {
    let found = named(spans, name);
    assert_eq!(
        found.len(),
        1,
        "one {name}: {:?}",
        spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    found[0]
}

pub(crate) fn status(span: &Span) -> SpanStatus {
    SpanStatus::try_from(span.status.as_ref().map_or(0, |s| s.code)).unwrap()
}
