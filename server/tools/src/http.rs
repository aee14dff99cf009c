//! The `http` tool: call a web API or fetch a page — public addresses and the project's allowed
//! hosts only — with a timeout, bounded redirects and a bounded response body.

pub mod address;
mod errors;
mod html;
mod policy;
mod redact;
mod resolve;
mod spec;

pub use html::html_to_text;
pub use policy::{AddressRefused, HttpPolicy, Refusal};
pub use spec::{MAX_BODY_BYTES, MAX_REDIRECTS, MAX_TIMEOUT_MS, spec};

use errors::{error_chain, request_error};
use redact::redacted;
use spec::NAME;

use crate::args;
use reqwest::redirect;
use reqwest::{Client, Method, Url};
use serde_json::{Map, Value};
use std::sync::{Arc, LazyLock, OnceLock};
use std::time::{Duration, Instant};
use vai_providers::net::install_crypto_provider;
use vai_workflow::{Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec, Usage};

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Makes HTTP requests within an [`HttpPolicy`]: the URL is checked before sending, each
/// redirect target before following it, and every address a name resolves to before connecting.
pub struct Http {
    policy: Arc<HttpPolicy>,
    /// Follows up to `MAX_REDIRECTS` redirects, re-checking each target against the policy.
    /// Built on the first call that needs it: building a client reads the system's CA
    /// certificates, which a run that makes no request should not wait for.
    following: OnceLock<Result<Client, String>>,
    /// Returns redirects as they are (`followRedirects: false`); built on first use too.
    direct: OnceLock<Result<Client, String>>,
}

impl Http {
    pub fn new(policy: HttpPolicy) -> Self {
        Self {
            policy: Arc::new(policy),
            following: OnceLock::new(),
            direct: OnceLock::new(),
        }
    }

    pub fn policy(&self) -> &HttpPolicy {
        &self.policy
    }

    /// The client for a request that follows redirects or not, built on first use.
    fn client(&self, follow: bool) -> &Result<Client, String> {
        match follow {
            true => self
                .following
                .get_or_init(|| build_client(following_redirects(&self.policy), &self.policy)),
            false => self
                .direct
                .get_or_init(|| build_client(redirect::Policy::none(), &self.policy)),
        }
    }
}

/// Follow up to `MAX_REDIRECTS` redirects, each target checked against `policy` first.
fn following_redirects(policy: &Arc<HttpPolicy>) -> redirect::Policy {
    let checker = Arc::clone(policy);
    redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
        }
        match checker.check(attempt.url()) {
            Ok(()) => attempt.follow(),
            Err(Refusal::Address(refused)) => attempt.error(refused),
            Err(why) => attempt.error(format!("redirect refused: {why}")),
        }
    })
}

fn build_client(redirects: redirect::Policy, policy: &Arc<HttpPolicy>) -> Result<Client, String> {
    install_crypto_provider();
    Client::builder()
        .user_agent(concat!("vai/", env!("CARGO_PKG_VERSION")))
        .redirect(redirects)
        .dns_resolver(resolve::CheckedResolver {
            policy: Arc::clone(policy),
        })
        // A proxy would resolve names where the resolver cannot check the addresses, so the
        // tool connects directly whatever HTTP_PROXY and HTTPS_PROXY say.
        .no_proxy()
        .build()
        .map_err(|e| {
            format!(
                "http: could not set up the HTTP client: {}",
                error_chain(&e)
            )
        })
}

/// The request a call describes, validated.
struct Request {
    url: Url,
    method: Method,
    headers: Vec<(reqwest::header::HeaderName, reqwest::header::HeaderValue)>,
    body: Option<(Vec<u8>, bool)>,
    timeout: Duration,
    parse_json: bool,
    extract_text: bool,
    follow: bool,
}

fn read_request(call: &ToolCall<'_>, policy: &HttpPolicy) -> Result<Request, ToolError> {
    let raw = args::required_str(NAME, call, "url")?.trim();
    let url = Url::parse(raw).map_err(|e| {
        ToolError::invalid(NAME, "url", format!("is not a valid URL ({e}): \"{raw}\""))
    })?;
    policy.check(&url).map_err(|why| match why {
        Refusal::Address(refused) => ToolError::NotConfigured(refused.message(&redacted(&url))),
        other => ToolError::invalid(NAME, "url", other.to_string()),
    })?;
    let method = args::choice(&SPEC, call, "method")?;
    let method = Method::from_bytes(method.as_bytes())
        .map_err(|e| ToolError::invalid(NAME, "method", e.to_string()))?;
    let mut headers = Vec::new();
    for (name, value) in args::object(&SPEC, call, "headers")? {
        if value.is_null() {
            continue;
        }
        let text = vai_workflow::value::to_text(Some(value));
        let bad = |what: &str| ToolError::invalid(NAME, "headers", format!("{what}: \"{name}\""));
        let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| bad("invalid header name"))?;
        let value = reqwest::header::HeaderValue::from_str(&text)
            .map_err(|_| bad("invalid value for header"))?;
        headers.push((name, value));
    }
    let body = if matches!(method, Method::POST | Method::PUT | Method::PATCH) {
        match call.input("body") {
            None => None,
            Some(Value::String(s)) => Some((s.clone().into_bytes(), false)),
            Some(v @ (Value::Object(_) | Value::Array(_))) => {
                Some((v.to_string().into_bytes(), true))
            }
            Some(v) => Some((vai_workflow::value::to_text(Some(v)).into_bytes(), false)),
        }
    } else {
        None
    };
    let timeout = args::count(&SPEC, call, "timeout")?;
    let extract_text = match args::opt_string(call, "extract") {
        None => false,
        Some(e) if e.eq_ignore_ascii_case("text") => true,
        Some(other) => {
            return Err(ToolError::invalid(
                NAME,
                "extract",
                format!("must be \"text\", got \"{other}\""),
            ));
        }
    };
    // With `extract`, the body is text whatever the response type.
    let response_type = args::choice(&SPEC, call, "responseType")?;
    Ok(Request {
        url,
        method,
        headers,
        body,
        timeout: Duration::from_millis(timeout),
        parse_json: response_type == "json" && !extract_text,
        extract_text,
        follow: args::flag(&SPEC, call, "followRedirects")?,
    })
}

impl Tool for Http {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let req = read_request(&call, &self.policy)?;
            let client = self
                .client(req.follow)
                .as_ref()
                .map_err(|e| ToolError::Failed(e.clone()))?;
            let timeout = req.timeout;
            let timed_out = || ToolError::Transient {
                message: format!(
                    "http: request to {} timed out after {} ms",
                    redacted(&req.url),
                    timeout.as_millis()
                ),
                retry_after: None,
            };
            let started = Instant::now();
            let fetched = tokio::time::timeout(timeout, fetch(client, &req))
                .await
                .map_err(|_| timed_out())?;
            let fetched = fetched.map_err(|e| {
                if e.is_timeout() {
                    timed_out()
                } else {
                    request_error(e, &req.url)
                }
            })?;
            let duration_ms = started.elapsed().as_millis() as u64;
            Ok(ToolOutput {
                output: fetched.into_output(&req, duration_ms),
                usage: Some(Usage {
                    requests: 1,
                    ..Usage::default()
                }),
                backend: None,
                size: None,
            })
        })
    }
}

struct Fetched {
    status: reqwest::StatusCode,
    headers: Map<String, Value>,
    body: Vec<u8>,
    truncated: bool,
}

async fn fetch(client: &Client, req: &Request) -> Result<Fetched, reqwest::Error> {
    let mut builder = client
        .request(req.method.clone(), req.url.clone())
        .timeout(req.timeout);
    let has_content_type = req
        .headers
        .iter()
        .any(|(n, _)| n == reqwest::header::CONTENT_TYPE);
    for (name, value) in &req.headers {
        builder = builder.header(name, value);
    }
    if let Some((bytes, is_json)) = &req.body {
        if *is_json && !has_content_type {
            builder = builder.header(reqwest::header::CONTENT_TYPE, "application/json");
        }
        builder = builder.body(bytes.clone());
    }
    let mut response = builder.send().await?;
    let mut headers = Map::new();
    for (name, value) in response.headers() {
        let value = String::from_utf8_lossy(value.as_bytes());
        match headers.get_mut(name.as_str()) {
            Some(Value::String(existing)) => {
                existing.push_str(", ");
                existing.push_str(&value);
            }
            _ => {
                headers.insert(name.as_str().to_string(), Value::String(value.into_owned()));
            }
        }
    }
    let mut body = Vec::new();
    let mut truncated = false;
    while let Some(chunk) = response.chunk().await? {
        let room = MAX_BODY_BYTES - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            truncated = true;
            break;
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Fetched {
        status: response.status(),
        headers,
        body,
        truncated,
    })
}

impl Fetched {
    fn into_output(mut self, req: &Request, duration_ms: u64) -> Value {
        if self.truncated {
            // Do not leave half a character at the cut.
            if let Err(e) = std::str::from_utf8(&self.body)
                && e.error_len().is_none()
            {
                self.body.truncate(e.valid_up_to());
            }
        }
        let text = match String::from_utf8(self.body) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        let body = if req.extract_text {
            Value::String(html_to_text(&text))
        } else if req.parse_json {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        } else {
            Value::String(text)
        };
        let mut out = Map::new();
        out.insert("status".into(), self.status.as_u16().into());
        out.insert(
            "statusText".into(),
            self.status.canonical_reason().unwrap_or("").into(),
        );
        out.insert("headers".into(), Value::Object(self.headers));
        out.insert("body".into(), body);
        out.insert("durationMs".into(), duration_ms.into());
        if self.truncated {
            out.insert(
                "warning".into(),
                format!(
                    "response body truncated at {} MB",
                    MAX_BODY_BYTES / (1024 * 1024)
                )
                .into(),
            );
        }
        Value::Object(out)
    }
}

#[cfg(test)]
mod policy_tests;
#[cfg(test)]
mod tests;
