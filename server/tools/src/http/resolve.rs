//! The name resolver of the http tool's clients: it drops the addresses the policy refuses, so
//! every connection — redirects included, and whatever a name resolves to at that moment (DNS
//! rebinding) — goes to an address that was checked. IP-literal URLs never reach a resolver;
//! `HttpPolicy::check` covers them before each request and each redirect.

use super::policy::HttpPolicy;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::SocketAddr;
use std::sync::Arc;

pub(super) struct CheckedResolver {
    pub(super) policy: Arc<HttpPolicy>,
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = Arc::clone(&self.policy);
        let host = name.as_str().to_string();
        Box::pin(async move {
            // Port 0: the connector puts the URL's port in.
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut refused = None;
            let admitted: Vec<SocketAddr> = found
                .into_iter()
                .filter(|addr| match policy.admit(&host, addr.ip()) {
                    Ok(()) => true,
                    Err(why) => {
                        refused.get_or_insert(why);
                        false
                    }
                })
                .collect();
            match refused {
                Some(why) if admitted.is_empty() => Err(why.into()),
                _ => Ok(Box::new(admitted.into_iter()) as Addrs),
            }
        })
    }
}
