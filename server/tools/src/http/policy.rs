//! Where the http tool may connect: the host allow-list (`.vai.json` `allowedHosts`, the
//! `--allow-host` flag) and the address policy — public addresses only, unless the host is named
//! in one of those lists.

use super::address::{self, NonPublic};
use super::redact::redacted;
use reqwest::Url;
use std::net::IpAddr;

/// Which hosts the tool may reach.
///
/// - Any host, when `allowed_hosts` is `None`; only the hosts of `allowed_hosts` and `flag_hosts`
///   when it is set.
/// - Whatever the list says, a host is reached only at public addresses (see
///   [`address::classify`]) unless an entry names it: an exact name or address, or a `*.suffix`
///   wildcard — not the bare `*`, which admits any host at a public address only.
/// - An entry with a port admits its host on that port only.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpPolicy {
    /// `.vai.json` `allowedHosts`: exact names (`api.example.com`, optionally with a port),
    /// `*.example.com` for any subdomain (not `example.com` itself), or `*`. Entries may be
    /// written as URLs; scheme and path are ignored.
    pub allowed_hosts: Option<Vec<String>>,
    /// `--allow-host` values: hosts reachable (at any address) in addition to `allowed_hosts`.
    /// They never turn an unset `allowed_hosts` into a list that refuses other hosts.
    pub flag_hosts: Vec<String>,
}

/// Why a URL may not be requested.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("only http and https URLs are allowed, not \"{0}:\"")]
    Scheme(String),
    #[error("the URL has no host")]
    NoHost,
    #[error(
        "host \"{host}\" is not in allowedHosts ({listed}); add it to allowedHosts in .vai.json or pass --allow-host {host}"
    )]
    NotListed { host: String, listed: String },
    #[error(
        "host \"{host}\" is allowed on port {ports} only; add {host}:{port} to allowedHosts in .vai.json or pass --allow-host {host}:{port}"
    )]
    Port {
        host: String,
        port: u16,
        ports: String,
    },
    #[error(transparent)]
    Address(#[from] AddressRefused),
}

/// A connection refused because the address it would reach is not public and no entry names
/// the host.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("refusing to connect to {ip} ({kind})")]
pub struct AddressRefused {
    pub ip: IpAddr,
    pub kind: NonPublic,
    /// The host as the URL names it (`localhost`, `127.0.0.1`, `[::1]`).
    pub host: String,
    /// The URL refused, without credentials or query, when known where the refusal was made (a
    /// name resolver sees only the host).
    pub url: Option<String>,
}

impl AddressRefused {
    /// The step's error message: what was refused, for which URL, and the two ways to allow it.
    pub fn message(&self, url: &str) -> String {
        let url = self.url.as_deref().unwrap_or(url);
        // A name refused while following a redirect: the request's URL is the first hop's.
        let target = match Url::parse(url) {
            Ok(u) if u.host_str() == Some(self.host.as_str()) => format!("\"{url}\""),
            _ => format!("{}, redirected from \"{url}\"", self.host),
        };
        format!(
            "http: refusing to connect to {} ({}) for {target}: private, loopback and link-local \
             addresses need an entry in allowedHosts in .vai.json or --allow-host {}",
            self.ip, self.kind, self.host
        )
    }
}

impl HttpPolicy {
    /// `Ok` when `url` is http(s), its host is allowed and, when the host is an IP address, that
    /// address may be reached. Names are checked again on the addresses they resolve to, when
    /// connecting ([`HttpPolicy::admit`]).
    pub fn check(&self, url: &Url) -> Result<(), Refusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refusal::Scheme(url.scheme().to_string()));
        }
        let shown = url.host_str().ok_or(Refusal::NoHost)?;
        let host = bare(shown).to_ascii_lowercase();
        if let Some(allowed) = &self.allowed_hosts {
            let port = url.port_or_known_default();
            let mut entries = allowed.iter().chain(&self.flag_hosts);
            if !entries.any(|p| host_matches(p, &host, port)) {
                let listed: Vec<&str> = allowed
                    .iter()
                    .chain(&self.flag_hosts)
                    .map(String::as_str)
                    .collect();
                return Err(Refusal::NotListed {
                    host,
                    listed: if listed.is_empty() {
                        "empty".to_string()
                    } else {
                        listed.join(", ")
                    },
                });
            }
        }
        self.check_port(&host, url.port_or_known_default())?;
        let ip = match url.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ => return Ok(()),
        };
        self.admit(shown, ip).map_err(|mut refused| {
            refused.url = Some(redacted(url));
            Refusal::Address(refused)
        })
    }

    /// An entry with a port admits its host on that port only, even where the list as a whole
    /// (unset, or holding `*`) would admit any.
    fn check_port(&self, host: &str, port: Option<u16>) -> Result<(), Refusal> {
        // The port of each entry that names the host (`None`: any port).
        let naming: Vec<Option<u16>> = self
            .named_entries()
            .filter_map(|p| {
                let e = entry_host(p);
                let (h, entry_port) = split_port(&e);
                host_matches(h, host, None).then_some(entry_port)
            })
            .collect();
        if naming.is_empty() || naming.iter().any(|p| p.is_none() || *p == port) {
            return Ok(());
        }
        let mut ports: Vec<String> = naming.iter().flatten().map(u16::to_string).collect();
        ports.sort();
        ports.dedup();
        Err(Refusal::Port {
            host: if host.contains(':') {
                format!("[{host}]")
            } else {
                host.to_string()
            },
            port: port.unwrap_or_default(),
            ports: ports.join(", "),
        })
    }

    /// Whether `host` (as a URL names it) may be reached at `ip`: public addresses always, others
    /// only when an entry names the host.
    pub fn admit(&self, host: &str, ip: IpAddr) -> Result<(), AddressRefused> {
        match address::classify(ip) {
            Some(kind) if !self.names(host) => Err(AddressRefused {
                ip,
                kind,
                host: host.to_string(),
                url: None,
            }),
            _ => Ok(()),
        }
    }

    /// Whether an entry other than the bare `*` names `host` (any port).
    fn names(&self, host: &str) -> bool {
        let host = bare(host).to_ascii_lowercase();
        self.named_entries().any(|p| host_matches(p, &host, None))
    }

    /// The entries of both lists that name hosts: all but the bare `*`.
    fn named_entries(&self) -> impl Iterator<Item = &String> {
        self.allowed_hosts
            .iter()
            .flatten()
            .chain(&self.flag_hosts)
            .filter(|p| split_port(&entry_host(p)).0 != "*")
    }
}

/// `host` without the brackets of an IPv6 address.
fn bare(host: &str) -> &str {
    host.trim_start_matches('[').trim_end_matches(']')
}

/// The `host[:port]` part of an entry, lower-case: scheme and path dropped.
fn entry_host(pattern: &str) -> String {
    let mut p = pattern.trim().to_ascii_lowercase();
    if let Some((_, rest)) = p.split_once("://") {
        p = rest.to_string();
    }
    if let Some(i) = p.find('/') {
        p.truncate(i);
    }
    p
}

/// Whether an allow-list entry admits `host` (lower-case, no brackets) on `port`; `None` admits
/// any port.
fn host_matches(pattern: &str, host: &str, port: Option<u16>) -> bool {
    let p = entry_host(pattern);
    let (pat_host, pat_port) = split_port(&p);
    if port.is_some() && pat_port.is_some() && pat_port != port {
        return false;
    }
    if pat_host == "*" {
        return true;
    }
    match pat_host.strip_prefix("*.") {
        Some(suffix) => host
            .strip_suffix(suffix)
            .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
        None => normalised(pat_host) == host,
    }
}

/// An entry's host as the URL parser writes hosts, so `127.1`, `0x7f.0.0.1` and `127.0.0.1`
/// are one address and `[::FFFF:7f00:1]` matches `::ffff:127.0.0.1`.
fn normalised(host: &str) -> String {
    let url = if host.contains(':') {
        format!("http://[{host}]/")
    } else {
        format!("http://{host}/")
    };
    match Url::parse(&url) {
        Ok(u) => u.host_str().map(bare).unwrap_or(host).to_string(),
        Err(_) => host.to_string(),
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
