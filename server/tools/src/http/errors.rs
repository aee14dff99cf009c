//! What a failed request tells the step: messages without credentials or query strings, and
//! which failures are worth retrying.

use super::policy::AddressRefused;
use super::redact::redacted;
use super::spec::NAME;
use reqwest::Url;
use vai_workflow::ToolError;

pub(super) fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

/// The address refusal behind a failed request (from the resolver or the redirect policy).
fn address_refusal<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e AddressRefused> {
    let mut next = Some(e);
    while let Some(err) = next {
        if let Some(refused) = err.downcast_ref::<AddressRefused>() {
            return Some(refused);
        }
        next = err.source();
    }
    None
}

pub(super) fn request_error(e: reqwest::Error, url: &Url) -> ToolError {
    if let Some(refused) = address_refusal(&e) {
        let shown = redacted(e.url().unwrap_or(url));
        return ToolError::NotConfigured(refused.message(&shown));
    }
    let is_redirect = e.is_redirect();
    let is_builder = e.is_builder();
    let detail = error_chain(&e.without_url());
    let message = format!("http: request to {} failed: {detail}", redacted(url));
    if is_redirect {
        ToolError::Failed(message)
    } else if is_builder {
        ToolError::invalid(NAME, "url", detail)
    } else {
        ToolError::Transient {
            message,
            retry_after: None,
        }
    }
}
