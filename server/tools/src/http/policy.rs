//! The host allow-list of the http tool (`.vai.json` `allowedHosts`).

use reqwest::Url;

/// Which hosts the tool may reach (`.vai.json` `allowedHosts`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpPolicy {
    /// `None`: any host. `Some`: only these — exact names (`api.example.com`, optionally with a
    /// port), `*.example.com` for any subdomain (not `example.com` itself), or `*`.
    pub allowed_hosts: Option<Vec<String>>,
}

impl HttpPolicy {
    /// `Ok` when `url` is http(s) and its host is allowed; otherwise why not.
    pub fn check(&self, url: &Url) -> Result<(), String> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!(
                "only http and https URLs are allowed, not \"{}:\"",
                url.scheme()
            ));
        }
        let host = url.host_str().ok_or("the URL has no host")?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        let Some(allowed) = &self.allowed_hosts else {
            return Ok(());
        };
        if allowed
            .iter()
            .any(|p| host_matches(p, &host, url.port_or_known_default()))
        {
            Ok(())
        } else {
            Err(format!(
                "host \"{host}\" is not in allowedHosts ({}); add it to allowedHosts in .vai.json",
                if allowed.is_empty() {
                    "empty".to_string()
                } else {
                    allowed.join(", ")
                }
            ))
        }
    }
}

/// Whether an allow-list entry admits `host` (lower-case) on `port`. Entries may be written as
/// URLs (`https://api.example.com/v1`): scheme and path are ignored.
fn host_matches(pattern: &str, host: &str, port: Option<u16>) -> bool {
    let mut p = pattern.trim().to_ascii_lowercase();
    if let Some((_, rest)) = p.split_once("://") {
        p = rest.to_string();
    }
    if let Some(i) = p.find('/') {
        p.truncate(i);
    }
    let (pat_host, pat_port) = split_port(&p);
    if pat_port.is_some() && pat_port != port {
        return false;
    }
    if pat_host == "*" {
        return true;
    }
    match pat_host.strip_prefix("*.") {
        Some(suffix) => host
            .strip_suffix(suffix)
            .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
        None => pat_host == host,
    }
}

/// `host:port`, `[v6]:port` or a bare host.
fn split_port(p: &str) -> (&str, Option<u16>) {
    if let Some(v6) = p.strip_prefix('[') {
        return match v6.split_once(']') {
            Some((h, rest)) => (h, rest.strip_prefix(':').and_then(|n| n.parse().ok())),
            None => (v6, None),
        };
    }
    match p.split_once(':') {
        Some((h, port)) if !port.contains(':') => match port.parse() {
            Ok(n) => (h, Some(n)),
            Err(_) => (p, None),
        },
        _ => (p, None),
    }
}
