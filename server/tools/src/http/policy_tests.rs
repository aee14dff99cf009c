//! The address policy through the tool: loopback refused by default in every spelling, whatever a
//! name resolves to and wherever a redirect leads; reachable once a list names the host.

use super::tests::{allowed, call, flagged, public_only, serve, serve_counted};
use super::*;
use serde_json::json;
use std::sync::atomic::Ordering;

#[tokio::test]
async fn loopback_is_refused_by_default_with_the_ways_to_allow_it() {
    let (addr, accepted) = serve_counted().await;
    let port = addr.port();
    let err = call(
        &public_only(),
        json!({"url": format!("http://127.0.0.1:{port}/api/runs?token=secret")}),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ToolError::NotConfigured(_)), "{err:?}");
    assert!(!err.is_transient());
    assert_eq!(
        err.to_string(),
        format!(
            "http: refusing to connect to 127.0.0.1 (loopback address) for \
             \"http://127.0.0.1:{port}/api/runs\": private, loopback and link-local addresses \
             need an entry in allowedHosts in .vai.json or --allow-host 127.0.0.1"
        )
    );
    // Other spellings of loopback, and of the cloud metadata address, are refused alike.
    for (url, shown) in [
        (
            format!("http://2130706433:{port}/"),
            "127.0.0.1 (loopback address)",
        ),
        (
            format!("http://0177.0.0.1:{port}/"),
            "127.0.0.1 (loopback address)",
        ),
        (
            format!("http://0x7f.1:{port}/"),
            "127.0.0.1 (loopback address)",
        ),
        (
            format!("http://127.1:{port}/"),
            "127.0.0.1 (loopback address)",
        ),
        (
            format!("http://[::ffff:127.0.0.1]:{port}/"),
            "::ffff:127.0.0.1 (loopback address)",
        ),
        (format!("http://[::1]:{port}/"), "::1 (loopback address)"),
        (
            format!("http://0.0.0.0:{port}/"),
            "0.0.0.0 (unspecified address)",
        ),
        (
            "http://169.254.169.254/latest/meta-data/".to_string(),
            "169.254.169.254 (link-local address)",
        ),
        ("http://10.0.0.1/".to_string(), "10.0.0.1 (private address)"),
    ] {
        let err = call(&public_only(), json!({"url": url})).await.unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)), "{url}: {err:?}");
        assert!(
            err.to_string()
                .starts_with(&format!("http: refusing to connect to {shown} for")),
            "{url}: {err}"
        );
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 0, "nothing connected");
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused() {
    let (addr, accepted) = serve_counted().await;
    let url = format!("http://localhost:{}/json", addr.port());
    let err = call(&public_only(), json!({"url": url})).await.unwrap_err();
    assert!(matches!(err, ToolError::NotConfigured(_)), "{err:?}");
    let msg = err.to_string();
    assert!(msg.starts_with("http: refusing to connect to "), "{msg}");
    assert!(
        msg.contains(&format!(
            "(loopback address) for \"{url}\": private, loopback"
        )),
        "{msg}"
    );
    assert!(msg.ends_with("or --allow-host localhost"), "{msg}");
    assert_eq!(accepted.load(Ordering::SeqCst), 0, "nothing connected");

    // A wildcard admits any host, but only at public addresses.
    let err = call(&Http::new(allowed(&["*"])), json!({"url": url}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::NotConfigured(_)), "{err:?}");
    assert_eq!(accepted.load(Ordering::SeqCst), 0, "nothing connected");
}

#[tokio::test]
async fn named_hosts_reach_private_addresses() {
    let addr = serve().await;
    let port = addr.port();
    let by_name = format!("http://localhost:{port}/json");
    let by_address = format!("http://127.0.0.1:{port}/json");
    for (policy, url) in [
        (allowed(&["localhost"]), &by_name),
        (allowed(&[&format!("localhost:{port}")]), &by_name),
        (allowed(&["127.0.0.1"]), &by_address),
        (allowed(&["127.1"]), &by_address),
        (flagged(&["localhost"]), &by_name),
        (flagged(&["127.0.0.1"]), &by_address),
    ] {
        let shown = format!("{policy:?}");
        let out = call(&Http::new(policy), json!({"url": url}))
            .await
            .unwrap_or_else(|e| panic!("{shown} {url}: {e}"));
        assert_eq!(out["body"], json!({"ok": true, "n": 1}), "{shown}");
    }
    // --allow-host adds a host; it does not turn "any public host" into a list.
    let flags = flagged(&["localhost"]);
    assert!(
        flags
            .check(&Url::parse("https://example.com/").unwrap())
            .is_ok()
    );
    // …and extends allowedHosts when that is set.
    let both = HttpPolicy {
        flag_hosts: vec!["localhost".into()],
        ..allowed(&["api.example.com"])
    };
    assert!(both.check(&Url::parse(&by_name).unwrap()).is_ok());
    assert!(
        both.check(&Url::parse("https://example.com/").unwrap())
            .is_err()
    );
}

#[tokio::test]
async fn a_redirect_to_a_refused_address_is_refused() {
    let (addr, accepted) = serve_counted().await;
    let port = addr.port();
    let http = Http::new(flagged(&["127.0.0.1"]));
    let hop = |to: &str| json!({"url": format!("http://127.0.0.1:{port}/redirect-to?to={to}")});

    // To a name that resolves to loopback: refused by the resolver.
    let err = call(&http, hop(&format!("http://localhost:{port}/json")))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::NotConfigured(_)), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains(&format!(
            "(loopback address) for localhost, redirected from \"http://127.0.0.1:{port}/redirect-to\""
        )),
        "{msg}"
    );
    assert!(msg.ends_with("or --allow-host localhost"), "{msg}");
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "only the first hop");

    // To an address literal: refused by the redirect policy, naming the hop.
    for (to, shown) in [
        (
            format!("http://[::ffff:127.0.0.1]:{port}/json"),
            format!(
                "refusing to connect to ::ffff:127.0.0.1 (loopback address) for \
                 \"http://[::ffff:7f00:1]:{port}/json\""
            ),
        ),
        (
            "http://169.254.169.254/latest/meta-data/".to_string(),
            "refusing to connect to 169.254.169.254 (link-local address) for \
             \"http://169.254.169.254/latest/meta-data/\""
                .to_string(),
        ),
    ] {
        let err = call(&http, hop(&to)).await.unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)), "{to}: {err:?}");
        assert!(err.to_string().contains(&shown), "{err}");
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 3, "only the first hops");

    // A redirect to the allowed host itself is followed.
    let out = call(&http, hop(&format!("http://127.0.0.1:{port}/json")))
        .await
        .unwrap();
    assert_eq!(out["body"], json!({"ok": true, "n": 1}));
}

#[test]
fn only_named_hosts_may_have_private_addresses() {
    let loopback: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let public: std::net::IpAddr = "93.184.216.34".parse().unwrap();
    let p = allowed(&["*", "*.corp.example", "db.internal:5432", "[::1]"]);
    assert!(p.admit("anything.net", public).is_ok());
    assert!(
        p.admit("anything.net", loopback).is_err(),
        "* is not a name"
    );
    assert!(p.admit("wiki.corp.example", loopback).is_ok());
    assert!(p.admit("corp.example", loopback).is_err());
    assert!(
        p.admit("db.internal", loopback).is_ok(),
        "any port: the list checks ports"
    );
    assert!(p.admit("[::1]", "::1".parse().unwrap()).is_ok());
    // An entry's port holds for its host even where the list would admit any port.
    let url = |u: &str| Url::parse(u).unwrap();
    for p in [
        flagged(&["localhost:11434"]),
        allowed(&["*", "localhost:11434"]),
    ] {
        assert!(p.check(&url("http://localhost:11434/api")).is_ok(), "{p:?}");
        assert!(p.check(&url("https://example.com/")).is_ok(), "{p:?}");
        assert_eq!(
            p.check(&url("http://localhost:3333/api/runs"))
                .unwrap_err()
                .to_string(),
            "host \"localhost\" is allowed on port 11434 only; add localhost:3333 to allowedHosts \
             in .vai.json or pass --allow-host localhost:3333",
            "{p:?}"
        );
    }
    let refused = HttpPolicy::default().admit("x.test", loopback).unwrap_err();
    assert_eq!(refused.kind, address::NonPublic::Loopback);
    assert_eq!(
        refused.message("http://x.test/a"),
        "http: refusing to connect to 127.0.0.1 (loopback address) for \"http://x.test/a\": \
         private, loopback and link-local addresses need an entry in allowedHosts in .vai.json \
         or --allow-host x.test"
    );
}
