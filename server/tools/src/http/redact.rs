//! A URL as messages show it: without credentials, query string or fragment.

use reqwest::Url;

/// The URL without credentials or query string, safe to show in messages.
pub(super) fn redacted(url: &Url) -> String {
    let mut shown = url.clone();
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.set_query(None);
    shown.set_fragment(None);
    shown.to_string()
}
