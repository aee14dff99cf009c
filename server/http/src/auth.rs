//! The access token, Jupyter's convention for a local server that runs things with the user's
//! credentials: `vai playground` prints a URL carrying `?token=…`; the page it opens trades the
//! token for an HttpOnly, SameSite=Strict cookie and is redirected to the same URL without it.
//! Every `/api` request (the WebSocket upgrade included) must carry the cookie or an
//! `Authorization: Bearer` header; the web app's static files need neither (they hold no data).

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, COOKIE, LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use vai_runtime::AccessToken;

/// The query parameter that carries the token in the printed URL.
const QUERY_PARAM: &str = "token";

/// The cookie's name. It carries the port because browsers share cookies across the ports of a
/// host: two playgrounds open at once must not overwrite each other's token.
pub(crate) fn cookie_name(port: u16) -> String {
    format!("vai_token_{port}")
}

pub(crate) async fn require_token(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let inner = state.inner();
    let path = request.uri().path();
    if path == "/api" || path.starts_with("/api/") {
        if presented(&inner.token, inner.port, request.headers()) {
            return next.run(request).await;
        }
        return ApiError::Unauthorized.into_response();
    }
    if let Some((token, rest)) = split_token(request.uri())
        && inner.token.matches(token)
    {
        return trade_for_cookie(&inner.token, inner.port, request.uri().path(), &rest);
    }
    // A page without the token (or with a wrong one) still loads: the app then shows what to do
    // when the API refuses it.
    next.run(request).await
}

/// True when the request carries the token in our cookie or a Bearer header.
fn presented(token: &AccessToken, port: u16, headers: &HeaderMap) -> bool {
    let bearer = headers
        .get_all(AUTHORIZATION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| {
            let (scheme, value) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| value.trim())
        })
        .any(|value| token.matches(value));
    let name = cookie_name(port);
    bearer
        || headers
            .get_all(COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(k, v)| k == name && token.matches(v))
}

/// The `token` query value and the rest of the query (in order, verbatim), when there is one.
fn split_token(uri: &Uri) -> Option<(&str, String)> {
    let query = uri.query()?;
    let mut token = None;
    let mut rest = Vec::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some((QUERY_PARAM, value)) if token.is_none() => token = Some(value),
            _ if pair.is_empty() => {}
            _ => rest.push(pair),
        }
    }
    token.map(|t| (t, rest.join("&")))
}

/// 303 to the same page without the token, setting the cookie.
fn trade_for_cookie(token: &AccessToken, port: u16, path: &str, rest: &str) -> Response {
    // One leading slash, whatever the request had: `//host` would send the browser elsewhere.
    let path = path.trim_start_matches(['/', '\\']);
    let location = if rest.is_empty() {
        format!("/{path}")
    } else {
        format!("/{path}?{rest}")
    };
    let cookie = format!(
        "{}={}; HttpOnly; SameSite=Strict; Path=/",
        cookie_name(port),
        token.as_str()
    );
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    for (name, value) in [
        (LOCATION, location),
        (SET_COOKIE, cookie),
        (CACHE_CONTROL, "no-store".to_string()),
    ] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use vai_runtime::TokenError;

    #[test]
    fn generated_tokens_are_long_and_different() {
        let a = AccessToken::generate().unwrap();
        let b = AccessToken::generate().unwrap();
        assert_eq!(a.as_str().len(), 64);
        assert!(AccessToken::parse(a.as_str()).is_ok());
        assert_ne!(a.as_str(), b.as_str());
    }

    #[test]
    fn given_tokens_must_be_url_and_cookie_safe() {
        assert!(AccessToken::parse("0123456789abcdef").is_ok());
        assert!(matches!(
            AccessToken::parse("short"),
            Err(TokenError::TooShort)
        ));
        assert!(matches!(
            AccessToken::parse("0123456789abcdef;x=1"),
            Err(TokenError::BadCharacter)
        ));
        assert!(matches!(
            AccessToken::parse(&"a".repeat(257)),
            Err(TokenError::TooLong)
        ));
    }

    #[test]
    fn the_token_is_split_from_the_rest_of_the_query() {
        let uri: Uri = "/?token=abc&workflow=builtin:x".parse().unwrap();
        assert_eq!(
            split_token(&uri),
            Some(("abc", "workflow=builtin:x".to_string()))
        );
        let uri: Uri = "/x?workflow=a&token=t".parse().unwrap();
        assert_eq!(split_token(&uri), Some(("t", "workflow=a".to_string())));
        let uri: Uri = "/?workflow=a".parse().unwrap();
        assert_eq!(split_token(&uri), None);
    }

    #[test]
    fn the_redirect_stays_on_this_site() {
        let token = AccessToken::parse("0123456789abcdef").unwrap();
        let response = trade_for_cookie(&token, 3333, "//evil.example/x", "");
        assert_eq!(response.headers()[LOCATION], "/evil.example/x");
        let response = trade_for_cookie(&token, 3333, "/", "workflow=a");
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        assert_eq!(response.headers()[LOCATION], "/?workflow=a");
        assert_eq!(
            response.headers()[SET_COOKIE],
            "vai_token_3333=0123456789abcdef; HttpOnly; SameSite=Strict; Path=/"
        );
    }

    #[test]
    fn the_cookie_or_a_bearer_header_is_accepted() {
        let token = AccessToken::parse("0123456789abcdef").unwrap();
        let with = |name, value: &str| {
            let mut h = HeaderMap::new();
            h.insert(name, HeaderValue::from_str(value).unwrap());
            presented(&token, 3333, &h)
        };
        assert!(with(AUTHORIZATION, "Bearer 0123456789abcdef"));
        assert!(with(AUTHORIZATION, "bearer  0123456789abcdef"));
        assert!(with(COOKIE, "a=b; vai_token_3333=0123456789abcdef"));
        assert!(!with(COOKIE, "vai_token_4444=0123456789abcdef"));
        assert!(!with(COOKIE, "vai_token_3333=0123456789abcdeX"));
        assert!(!with(AUTHORIZATION, "Basic 0123456789abcdef"));
        assert!(!presented(&token, 3333, &HeaderMap::new()));
    }
}
