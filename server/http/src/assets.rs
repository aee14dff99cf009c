//! The web app, embedded from `web/dist` at build time (read from disk in debug builds). Any
//! GET that is not an API route or a file gets `index.html`, so client-side URLs load the app.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};

#[derive(rust_embed::Embed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct Dist;

/// Shown when the binary was built before the web app.
const NOT_BUILT: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>vai playground</title></head>\
<body style=\"font-family: sans-serif; margin: 3rem\"><h1>vai playground</h1>\
<p>The web app is not built: run <code>npm run build -w web</code>, then rebuild <code>vai</code>.</p>\
<p>The API is up at <a href=\"/api/tools\">/api/tools</a>.</p></body></html>";

/// Hashed build output: safe to cache for good.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

pub(crate) async fn serve(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty()
        && let Some(file) = Dist::get(path)
    {
        let cache = if path.starts_with("assets/") {
            IMMUTABLE
        } else {
            "no-cache"
        };
        return file_response(&file, cache);
    }
    // A missing asset is a 404, not the app: a stale page must not parse HTML as script.
    if path.starts_with("assets/") {
        return StatusCode::NOT_FOUND.into_response();
    }
    match Dist::get("index.html") {
        Some(index) => file_response(&index, "no-cache"),
        None => {
            let mut response = Html(NOT_BUILT).into_response();
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
    }
}

fn file_response(file: &rust_embed::EmbeddedFile, cache: &'static str) -> Response {
    let mime = file.metadata.mimetype();
    // Embedded files are static in release builds: serve them without a copy.
    let mut response = match file.data.clone() {
        std::borrow::Cow::Borrowed(bytes) => bytes.into_response(),
        std::borrow::Cow::Owned(bytes) => bytes.into_response(),
    };
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(mime) {
        headers.insert(CONTENT_TYPE, v);
    }
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}
