//! One pooled `mongodb::Client` per connection string per process, built lazily on first use
//! with short server-selection and connect timeouts, and the redaction that keeps the URI's
//! password out of every message.
//!
//! A client's background tasks live on the tokio runtime that first used it. A process runs one
//! runtime, so that is the process's client; tests that each start a runtime use distinct URIs.

use mongodb::Client;
use mongodb::options::{ClientOptions, ConnectionString};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::OnceCell;

/// How long an operation waits for a usable server unless the URI says otherwise.
pub const SERVER_SELECTION_TIMEOUT: Duration = Duration::from_secs(10);
/// How long opening one connection may take unless the URI says otherwise.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const APP_NAME: &str = "vai";

/// A connection string and, once first used, its client.
#[derive(Debug)]
pub(crate) struct Pooled {
    options: ConnectionString,
    client: OnceCell<Client>,
}

impl Pooled {
    /// The client, built on first call. A failed build is not cached: the next call retries.
    pub(crate) async fn client(&self) -> Result<&Client, mongodb::error::Error> {
        self.client
            .get_or_try_init(|| async {
                // `mongodb+srv://` resolves its seed list in DNS here.
                let options = ClientOptions::parse(self.options.clone()).await?;
                Client::with_options(options)
            })
            .await
    }

    pub(crate) fn server_selection_timeout(&self) -> Duration {
        self.options
            .server_selection_timeout
            .unwrap_or(SERVER_SELECTION_TIMEOUT)
    }
}

/// The process's pooled entry for `uri`, shared by every store made from the same string.
pub(crate) fn pooled(uri: &str) -> Result<Arc<Pooled>, mongodb::error::Error> {
    static POOL: OnceLock<Mutex<HashMap<String, Arc<Pooled>>>> = OnceLock::new();
    let mut pool = POOL
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(entry) = pool.get(uri) {
        return Ok(entry.clone());
    }
    let entry = Arc::new(Pooled {
        options: connection_string(uri)?,
        client: OnceCell::new(),
    });
    pool.insert(uri.to_string(), entry.clone());
    Ok(entry)
}

/// `uri` parsed (no network), with vai's timeouts and app name where the URI sets none.
pub(crate) fn connection_string(uri: &str) -> Result<ConnectionString, mongodb::error::Error> {
    let mut options = ConnectionString::parse(uri)?;
    options
        .server_selection_timeout
        .get_or_insert(SERVER_SELECTION_TIMEOUT);
    options.connect_timeout.get_or_insert(CONNECT_TIMEOUT);
    options.app_name.get_or_insert_with(|| APP_NAME.to_string());
    Ok(options)
}

/// A connection string fit to show: the password of `user:password@` replaced by `****`.
pub fn redact_uri(uri: &str) -> String {
    Redactor::new(uri).redact(uri)
}

/// Scrubs the password of one connection string from messages.
#[derive(Debug, Clone, Default)]
pub(crate) struct Redactor {
    /// The password as written in the URI and percent-decoded, when long enough to scrub
    /// literally without mangling the rest of a message.
    secrets: Vec<String>,
}

/// Shorter passwords are only removed where they appear as `user:password@`.
const MIN_LITERAL_SECRET: usize = 4;

impl Redactor {
    pub(crate) fn new(uri: &str) -> Self {
        let mut secrets = Vec::new();
        if let Some(password) = userinfo_password(uri) {
            let decoded = percent_decode(password);
            for secret in [password.to_string(), decoded] {
                vai_redact::register(&secret);
                if secret.len() >= MIN_LITERAL_SECRET && !secrets.contains(&secret) {
                    secrets.push(secret);
                }
            }
        }
        Redactor { secrets }
    }

    /// `text` with every `scheme://user:password@` password and the known password masked.
    pub(crate) fn redact(&self, text: &str) -> String {
        let mut out = mask_userinfo(text);
        for secret in &self.secrets {
            out = out.replace(secret.as_str(), "****");
        }
        out
    }
}

/// The password in the first `scheme://user:password@host` of `text`.
fn userinfo_password(text: &str) -> Option<&str> {
    let start = text.find("://")? + 3;
    let authority = &text[start..];
    let end = authority.find(['/', '?', '#']).unwrap_or(authority.len());
    let userinfo = &authority[..authority[..end].rfind('@')?];
    userinfo.split_once(':').map(|(_, password)| password)
}

/// Every `scheme://user:password@` in `text` with the password replaced by `****`.
fn mask_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace())
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority
            .rfind('@')
            .and_then(|a| authority[..a].find(':').map(|c| (c, a)))
        {
            Some((colon, at)) => {
                out.push_str(&authority[..=colon]);
                out.push_str("****");
                out.push_str(&authority[at..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// `%XX` escapes decoded; anything malformed is kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_messages_lose_their_passwords() {
        assert_eq!(
            redact_uri("mongodb+srv://ann:p%40ss:w0rd@cluster0.x.mongodb.net/?retryWrites=true"),
            "mongodb+srv://ann:****@cluster0.x.mongodb.net/?retryWrites=true"
        );
        assert_eq!(
            redact_uri("mongodb://localhost:27017"),
            "mongodb://localhost:27017"
        );
        assert_eq!(
            redact_uri("mongodb://ann@h1,h2/db"),
            "mongodb://ann@h1,h2/db"
        );
        let r = Redactor::new("mongodb://ann:p%40ssw0rd@h1:27017,h2:27018/db");
        assert_eq!(
            r.redact("bad auth for mongodb://ann:p%40ssw0rd@h1:27017 (tried p@ssw0rd)"),
            "bad auth for mongodb://ann:****@h1:27017 (tried ****)"
        );
        // Too short to scrub literally; still masked inside a URI.
        let short = Redactor::new("mongodb://ann:ab@h");
        assert_eq!(
            short.redact("mongodb://ann:ab@h: about"),
            "mongodb://ann:****@h: about"
        );
        assert_eq!(percent_decode("a%2Fb%zz%4"), "a/b%zz%4");
    }

    #[test]
    fn connection_strings_get_short_timeouts_unless_the_uri_sets_them() {
        let defaults = connection_string("mongodb://localhost:27017").unwrap();
        assert_eq!(
            defaults.server_selection_timeout,
            Some(SERVER_SELECTION_TIMEOUT)
        );
        assert_eq!(defaults.connect_timeout, Some(CONNECT_TIMEOUT));
        assert_eq!(defaults.app_name.as_deref(), Some("vai"));
        let own = connection_string(
            "mongodb://localhost/?serverSelectionTimeoutMS=500&connectTimeoutMS=700&appName=mine",
        )
        .unwrap();
        assert_eq!(
            own.server_selection_timeout,
            Some(Duration::from_millis(500))
        );
        assert_eq!(own.connect_timeout, Some(Duration::from_millis(700)));
        assert_eq!(own.app_name.as_deref(), Some("mine"));
        assert!(connection_string("http://localhost").is_err());
    }

    #[test]
    fn one_pooled_entry_per_uri() {
        let a = pooled("mongodb://pool-test-a.invalid:27017").unwrap();
        let b = pooled("mongodb://pool-test-a.invalid:27017").unwrap();
        let c = pooled("mongodb://pool-test-c.invalid:27017").unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(a.server_selection_timeout(), SERVER_SELECTION_TIMEOUT);
    }
}
