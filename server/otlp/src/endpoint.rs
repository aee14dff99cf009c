//! Where traces go: the collector's URL from `--otlp-endpoint` or `OTEL_EXPORTER_OTLP_ENDPOINT`
//! (the flag wins), checked before anything runs. Neither set means no export at all.

use reqwest::Url;
use std::fmt;

/// The command-line flag that turns export on.
pub const FLAG: &str = "--otlp-endpoint";
/// The standard environment variable that turns export on when the flag is absent.
pub const ENV: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
/// The path OTLP/HTTP collectors take traces at, appended to a base URL.
const TRACES_PATH: &str = "/v1/traces";

/// An OTLP/HTTP traces URL: http or https, with a host, and no credentials in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint(Url);

/// Why the endpoint given is not one; the message names where it came from and the value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{from} \"{value}\": {reason}")]
pub struct EndpointError {
    /// `--otlp-endpoint` or `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub from: &'static str,
    pub value: String,
    pub reason: String,
}

impl Endpoint {
    /// The endpoint the flag gives, else the environment variable's value; `None` when neither
    /// is set (an empty variable counts as unset, as the OpenTelemetry specification says).
    pub fn resolve(flag: Option<&str>, env: Option<&str>) -> Result<Option<Self>, EndpointError> {
        match (flag, env) {
            (Some(value), _) => Self::parse(value, FLAG).map(Some),
            (None, Some(value)) if !value.trim().is_empty() => Self::parse(value, ENV).map(Some),
            (None, _) => Ok(None),
        }
    }

    /// `value` as a traces URL. A base URL (`http://localhost:4318`) gets `/v1/traces` appended,
    /// as the specification has it for `OTEL_EXPORTER_OTLP_ENDPOINT`; a URL already ending in
    /// it is taken as is.
    fn parse(value: &str, from: &'static str) -> Result<Self, EndpointError> {
        let refuse = |reason: &str| EndpointError {
            from,
            value: value.to_string(),
            reason: reason.to_string(),
        };
        if !value.contains("://") {
            return Err(refuse(
                "give the whole URL with its scheme, e.g. http://localhost:4318",
            ));
        }
        let mut url = Url::parse(value.trim()).map_err(|e| {
            refuse(&format!(
                "not a URL ({e}); give the collector's, e.g. http://localhost:4318"
            ))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(refuse(&format!(
                "the scheme must be http or https (OTLP over HTTP), not {}",
                url.scheme()
            )));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(refuse("the URL names no host"));
        }
        if !url.username().is_empty() || url.password().is_some() {
            // Not repeated in the message either.
            let mut shown = url.clone();
            let _ = shown.set_password(None);
            let _ = shown.set_username("***");
            return Err(EndpointError {
                value: shown.to_string(),
                ..refuse(
                    "credentials do not belong in the URL (it is shown in messages); send them with OTEL_EXPORTER_OTLP_HEADERS",
                )
            });
        }
        if !url.path().ends_with(TRACES_PATH) {
            let path = format!("{}{TRACES_PATH}", url.path().trim_end_matches('/'));
            url.set_path(&path);
        }
        Ok(Self(url))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(flag: Option<&str>, env: Option<&str>) -> Option<String> {
        Endpoint::resolve(flag, env).unwrap().map(|e| e.to_string())
    }

    #[test]
    fn neither_set_means_no_export() {
        assert_eq!(ok(None, None), None);
        assert_eq!(ok(None, Some("")), None);
        assert_eq!(ok(None, Some("  ")), None);
    }

    #[test]
    fn the_flag_wins_over_the_environment() {
        assert_eq!(
            ok(
                Some("http://127.0.0.1:9/v1/traces"),
                Some("http://other:4318")
            ),
            Some("http://127.0.0.1:9/v1/traces".into())
        );
        assert_eq!(
            ok(None, Some("http://collector:4318")),
            Some("http://collector:4318/v1/traces".into())
        );
    }

    #[test]
    fn a_base_url_gets_the_traces_path() {
        assert_eq!(
            ok(Some("https://otel.example/otlp/"), None),
            Some("https://otel.example/otlp/v1/traces".into())
        );
        assert_eq!(
            ok(Some("http://[::1]:4318"), None),
            Some("http://[::1]:4318/v1/traces".into())
        );
    }

    #[test]
    fn anything_but_http_is_refused_naming_where_it_came_from() {
        let e = Endpoint::resolve(Some("grpc://localhost:4317"), None).unwrap_err();
        assert_eq!(e.from, FLAG);
        assert_eq!(
            e.to_string(),
            "--otlp-endpoint \"grpc://localhost:4317\": the scheme must be http or https (OTLP over HTTP), not grpc"
        );
        let e = Endpoint::resolve(None, Some("localhost:4318")).unwrap_err();
        assert_eq!(e.from, ENV);
        assert!(
            e.to_string()
                .starts_with("OTEL_EXPORTER_OTLP_ENDPOINT \"localhost:4318\":")
        );
        assert!(e.reason.contains("with its scheme"), "{e}");
        let e = Endpoint::resolve(Some(""), None).unwrap_err();
        assert!(e.reason.contains("with its scheme"), "{e}");
        let e = Endpoint::resolve(Some("http://"), None).unwrap_err();
        assert!(e.reason.starts_with("not a URL"), "{e}");
        let e = Endpoint::resolve(Some("http://user:secret@host:4318"), None).unwrap_err();
        assert!(e.reason.contains("credentials"), "{e}");
        assert!(!e.to_string().contains("secret"), "{e}");
        assert_eq!(e.value, "http://***@host:4318/");
        let e = Endpoint::resolve(Some("file:///tmp/x"), None).unwrap_err();
        assert!(e.reason.contains("http or https"), "{e}");
    }
}
