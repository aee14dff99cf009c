//! Driver errors as `ProviderError`s: a server without Atlas Search, refused credentials and an
//! unreachable server each get a message saying what to do; nothing carries the URI's password.
//!
//! The driver's error is first reduced to a [`Failure`] (the facts the mapping needs), so the
//! mapping itself is tested as data.

use super::client::Redactor;
use crate::ProviderError;
use mongodb::error::{Error, ErrorKind, WriteFailure};
use std::time::Duration;

pub(crate) const PROVIDER: &str = "mongodb";

/// What a server without Atlas Search (plain Community, or an old Atlas tier) gets told.
pub const NO_ATLAS_SEARCH: &str = "this MongoDB server has no Atlas Search: vector search needs \
    MongoDB Atlas (or a local Atlas deployment via `atlas deployments setup`); set MONGODB_URI to \
    an Atlas cluster, or unset it to use vai's local store";

/// A driver error reduced to what decides its mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The credentials were refused while connecting.
    Auth(String),
    /// No server became selectable in time.
    Unreachable(String),
    /// I/O, DNS or a connection pool cleared under the operation.
    Network(String),
    /// The server answered with an error (a command error, or the first write error).
    Command {
        code: i32,
        code_name: String,
        message: String,
    },
    /// Something the caller sent cannot work (a bad URI option, a TLS setting, …).
    Invalid(String),
    Other(String),
}

impl Failure {
    pub(crate) fn of(error: &Error) -> Failure {
        let text = error.kind.to_string();
        match error.kind.as_ref() {
            ErrorKind::Authentication { message, .. } => Failure::Auth(message.clone()),
            ErrorKind::ServerSelection { message, .. } => Failure::Unreachable(message.clone()),
            ErrorKind::DnsResolve { .. } => {
                Failure::Network(format!("{text}; check the host name in MONGODB_URI"))
            }
            ErrorKind::Io(_) | ErrorKind::ConnectionPoolCleared { .. } => Failure::Network(text),
            ErrorKind::Command(e) => command(e.code, &e.code_name, &e.message),
            ErrorKind::Write(WriteFailure::WriteError(e)) => {
                command(e.code, e.code_name.as_deref().unwrap_or(""), &e.message)
            }
            ErrorKind::Write(WriteFailure::WriteConcernError(e)) => {
                command(e.code, &e.code_name, &e.message)
            }
            ErrorKind::InsertMany(e) => match (&e.write_errors, &e.write_concern_error) {
                (Some(errors), _) if !errors.is_empty() => {
                    let first = &errors[0];
                    let more = match errors.len() - 1 {
                        0 => String::new(),
                        n => format!(" (and {n} more write errors)"),
                    };
                    command(
                        first.code,
                        first.code_name.as_deref().unwrap_or(""),
                        &format!("document {}: {}{more}", first.index, first.message),
                    )
                }
                (_, Some(wc)) => command(wc.code, &wc.code_name, &wc.message),
                _ => Failure::Other(text),
            },
            ErrorKind::InvalidArgument { .. } | ErrorKind::InvalidTlsConfig { .. } => {
                Failure::Invalid(text)
            }
            _ => Failure::Other(text),
        }
    }
}

fn command(code: i32, code_name: &str, message: &str) -> Failure {
    Failure::Command {
        code,
        code_name: code_name.to_string(),
        message: message.to_string(),
    }
}

/// Maps driver failures for one store: scrubs its password, names its selection timeout.
#[derive(Debug, Clone)]
pub(crate) struct ErrorMapper {
    pub(crate) redactor: Redactor,
    pub(crate) selection_timeout: Duration,
}

impl ErrorMapper {
    pub(crate) fn map(&self, error: &Error) -> ProviderError {
        self.map_failure(Failure::of(error))
    }

    pub(crate) fn map_failure(&self, failure: Failure) -> ProviderError {
        let provider = PROVIDER.to_string();
        let clean = |m: &str| self.redactor.redact(m);
        match failure {
            Failure::Auth(message) => ProviderError::Auth {
                provider,
                message: format!("{}; check MONGODB_URI credentials", clean(&message)),
            },
            Failure::Unreachable(message) => ProviderError::Network {
                provider,
                message: format!(
                    "no MongoDB server reachable within {}s; check MONGODB_URI, that the server \
                     is running and, for Atlas, that this machine's IP is on the project's access \
                     list ({})",
                    self.selection_timeout.as_secs_f64(),
                    clean(&message)
                ),
            },
            Failure::Network(message) => ProviderError::Network {
                provider,
                message: clean(&message),
            },
            Failure::Command {
                code,
                code_name,
                message,
            } => command_error(code, &code_name, &clean(&message)),
            Failure::Invalid(message) => ProviderError::invalid_request(
                provider,
                format!("MONGODB_URI: {}", clean(&message)),
            ),
            Failure::Other(message) => ProviderError::other(provider, clean(&message)),
        }
    }
}

/// Whether a server error means the deployment has no Atlas Search.
pub(crate) fn lacks_atlas_search(code: i32, code_name: &str, message: &str) -> bool {
    let about_search = ["search", "Search"].iter().any(|s| message.contains(s));
    code == 31082
        || code_name == "SearchNotEnabled"
        || code == 6047401
        || message.contains("only allowed on MongoDB Atlas")
        || message.contains("only available on Atlas")
        // Unrecognized pipeline stage / CommandNotSupported / CommandNotFound, but only when the
        // stage or command is a search one: a typo in a user pipeline is not a missing feature.
        || (matches!(code, 40324 | 115 | 59) && about_search)
}

fn command_error(code: i32, code_name: &str, message: &str) -> ProviderError {
    let provider = PROVIDER.to_string();
    let described = if code_name.is_empty() {
        format!("{message} (code {code})")
    } else {
        format!("{message} ({code_name}, code {code})")
    };
    if lacks_atlas_search(code, code_name, message) {
        return ProviderError::invalid_request(
            provider,
            format!("{NO_ATLAS_SEARCH} ({described})"),
        );
    }
    match code {
        // AuthenticationFailed, Unauthorized.
        18 | 13 => ProviderError::Auth {
            provider,
            message: format!("{described}; check MONGODB_URI credentials and the user's roles"),
        },
        // Atlas's proxy reports refused logins as AtlasError.
        8000 if message.contains("auth") => ProviderError::Auth {
            provider,
            message: format!("{described}; check MONGODB_URI credentials"),
        },
        // HostUnreachable, HostNotFound, NetworkTimeout, SocketException.
        6 | 7 | 89 | 9001 => ProviderError::Network {
            provider,
            message: described,
        },
        // Shutdown and replica-set elections: the operation can run again shortly.
        91 | 189 | 10107 | 11600 | 11602 | 13435 | 13436 => ProviderError::Server {
            provider,
            status: 503,
            message: described,
        },
        _ if message.contains("needs to be indexed as") => ProviderError::invalid_request(
            provider,
            format!(
                "{described}; a search filter can only use fields the vector index declares as \
                 `filter` fields (indexes vai creates declare `source`)"
            ),
        ),
        _ => ProviderError::invalid_request(provider, described),
    }
}

/// The error for a collection whose vector search index does not exist.
pub(crate) fn missing_index(namespace: &crate::Namespace, index: &str) -> ProviderError {
    ProviderError::invalid_request(
        PROVIDER,
        format!(
            "{namespace} has no vector search index named \"{index}\"; ingest into it with vai \
             (which creates the index) or create it in Atlas"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongodb::bson::doc;
    use mongodb::error::CommandError;

    fn mapper() -> ErrorMapper {
        ErrorMapper {
            redactor: Redactor::new("mongodb://ann:hunter22@db.example.com/"),
            selection_timeout: Duration::from_secs(10),
        }
    }

    fn cmd(code: i32, code_name: &str, message: &str) -> ProviderError {
        mapper().map_failure(command(code, code_name, message))
    }

    #[test]
    fn servers_without_atlas_search_get_the_atlas_message() {
        let cases = [
            (
                31082,
                "SearchNotEnabled",
                "Using $vectorSearch requires additional configuration",
            ),
            (
                6047401,
                "Location6047401",
                "$vectorSearch stage is only allowed on MongoDB Atlas",
            ),
            (
                40324,
                "Location40324",
                "Unrecognized pipeline stage name: '$vectorSearch'",
            ),
            (
                40324,
                "Location40324",
                "Unrecognized pipeline stage name: '$listSearchIndexes'",
            ),
            (
                115,
                "CommandNotSupported",
                "Search indexes are only available on Atlas",
            ),
            (
                59,
                "CommandNotFound",
                "no such command: 'createSearchIndexes'",
            ),
        ];
        for (code, name, message) in cases {
            let e = cmd(code, name, message);
            assert!(matches!(e, ProviderError::InvalidRequest { .. }), "{e:?}");
            let text = e.to_string();
            assert!(
                text.starts_with(
                    "mongodb: invalid request: this MongoDB server has no Atlas Search"
                ),
                "{text}"
            );
            assert!(
                text.contains("atlas deployments setup") && text.contains(message),
                "{text}"
            );
        }
        // A typo in a user's pipeline is not a missing feature.
        let typo = cmd(
            40324,
            "Location40324",
            "Unrecognized pipeline stage name: '$matc'",
        );
        assert_eq!(
            typo.to_string(),
            "mongodb: invalid request: Unrecognized pipeline stage name: '$matc' (Location40324, code 40324)"
        );
    }

    #[test]
    fn refused_credentials_are_auth_errors_without_the_password() {
        let e = mapper().map_failure(Failure::Auth(
            "SCRAM failure for mongodb://ann:hunter22@db.example.com: bad auth".into(),
        ));
        assert_eq!(
            e,
            ProviderError::Auth {
                provider: "mongodb".into(),
                message: "SCRAM failure for mongodb://ann:****@db.example.com: bad auth; check \
                          MONGODB_URI credentials"
                    .into()
            }
        );
        assert!(matches!(
            cmd(18, "AuthenticationFailed", "Authentication failed."),
            ProviderError::Auth { .. }
        ));
        assert!(matches!(
            cmd(13, "Unauthorized", "not authorized on kb"),
            ProviderError::Auth { .. }
        ));
        assert!(matches!(
            cmd(8000, "AtlasError", "bad auth : authentication failed"),
            ProviderError::Auth { .. }
        ));
        assert!(!e.is_transient());
    }

    #[test]
    fn unreachable_servers_and_elections_are_transient() {
        let e = mapper().map_failure(Failure::Unreachable(
            "Server selection timeout: No available servers (hunter22)".into(),
        ));
        assert!(e.is_transient());
        let text = e.to_string();
        assert!(
            text.starts_with("mongodb: network error: no MongoDB server reachable within 10s"),
            "{text}"
        );
        assert!(
            text.contains("access list") && !text.contains("hunter22"),
            "{text}"
        );
        for code in [6, 89, 9001, 91, 189, 10107, 11602] {
            assert!(cmd(code, "", "x").is_transient(), "{code}");
        }
        assert!(!cmd(2, "BadValue", "x").is_transient());
    }

    #[test]
    fn other_server_errors_keep_their_message_with_a_hint_where_one_helps() {
        let e = cmd(
            8,
            "UnknownError",
            "PlanExecutor error during aggregation :: caused by :: Path 'lang' needs to be indexed as filter",
        );
        assert!(
            e.to_string()
                .contains("`filter` fields (indexes vai creates declare `source`)"),
            "{e}"
        );
        assert_eq!(
            cmd(2, "", "bad").to_string(),
            "mongodb: invalid request: bad (code 2)"
        );
    }

    #[test]
    fn driver_errors_reduce_to_failures() {
        let io = Error::from(std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "refused",
        ));
        assert!(matches!(Failure::of(&io), Failure::Network(m) if m.contains("refused")));
        let command_error: CommandError = mongodb::bson::from_document(doc! {
            "code": 31082, "codeName": "SearchNotEnabled", "errmsg": "no search here"
        })
        .unwrap();
        let server = Error::from(ErrorKind::Command(command_error));
        assert_eq!(
            Failure::of(&server),
            command(31082, "SearchNotEnabled", "no search here")
        );
        assert!(
            mapper()
                .map(&server)
                .to_string()
                .contains("no Atlas Search")
        );
    }
}
