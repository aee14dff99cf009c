//! HTTP plumbing shared by the provider clients: installing rustls' crypto provider, reading a
//! `Retry-After` header, and retrying a call with exponential backoff that honours it.

use crate::ProviderError;
use std::future::Future;
use std::sync::Once;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Install rustls' *ring* crypto provider as the process default (once; later calls and an
/// already-installed provider are fine). Call it before building any reqwest client: reqwest is
/// built without a provider of its own.
pub fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Err means another provider is already installed, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// How often to try a call and how long to wait in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt: at most `max_retries + 1` attempts in all.
    pub max_retries: u32,
    /// Wait before the first retry; doubled before each further one.
    pub initial_backoff: Duration,
    /// Ceiling of the doubled wait.
    pub max_backoff: Duration,
    /// Longest `Retry-After` waited for; a server asking for longer ends the retries at once, so
    /// the caller sees the rate limit instead of a process that hangs.
    pub max_retry_after: Duration,
}

impl RetryPolicy {
    /// `max_retries` retries starting at `initial_backoff`, doubling up to 30 s, and honouring a
    /// `Retry-After` of up to 60 s.
    pub fn new(max_retries: u32, initial_backoff: Duration) -> Self {
        RetryPolicy {
            max_retries,
            initial_backoff,
            max_backoff: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(60),
        }
    }

    /// The wait before retry number `retry` (0 for the first), or `None` when no retry is left.
    /// A server's `retry_after` replaces the backoff.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Option<Duration> {
        if retry >= self.max_retries {
            return None;
        }
        match retry_after {
            Some(wait) if wait > self.max_retry_after => None,
            Some(wait) => Some(wait),
            None => Some(
                self.initial_backoff
                    .saturating_mul(2u32.saturating_pow(retry))
                    .min(self.max_backoff),
            ),
        }
    }
}

/// One failed attempt: the error, and how long the server asked us to wait (`Retry-After`), which
/// a 503 may send as well as a 429.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptError {
    pub error: ProviderError,
    pub retry_after: Option<Duration>,
}

impl From<ProviderError> for AttemptError {
    fn from(error: ProviderError) -> Self {
        let retry_after = error.retry_after();
        AttemptError { error, retry_after }
    }
}

/// The error that ended a [`retry`], and how many attempts were made, for messages such as
/// "rate limited after 5 attempts".
#[derive(Debug, Clone, PartialEq)]
pub struct Failed {
    pub error: ProviderError,
    pub attempts: u32,
}

/// Calls `attempt(n)` (n = 1, 2, …) until it succeeds, fails with an error that is not transient
/// ([`ProviderError::is_transient`]: 4xx, auth, malformed answers are never retried), or
/// `policy` allows no further retry.
pub async fn retry<T, F, Fut>(policy: &RetryPolicy, mut attempt: F) -> Result<T, Failed>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, AttemptError>>,
{
    let mut attempts = 0;
    loop {
        attempts += 1;
        let AttemptError { error, retry_after } = match attempt(attempts).await {
            Ok(value) => return Ok(value),
            Err(failed) => failed,
        };
        let wait = if error.is_transient() {
            policy.delay(attempts - 1, retry_after)
        } else {
            None
        };
        match wait {
            Some(wait) => tokio::time::sleep(wait).await,
            None => return Err(Failed { error, attempts }),
        }
    }
}

/// A `Retry-After` value as a wait: delay seconds (fractions accepted) or an HTTP date (a date
/// in the past is no wait). `None` when it is neither.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    parse_retry_after_at(value, SystemTime::now())
}

fn parse_retry_after_at(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let at = parse_http_date(value)?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the only date form servers may send.
fn parse_http_date(value: &str) -> Option<SystemTime> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (_weekday, rest) = value.split_once(", ")?;
    let fields: Vec<&str> = rest.split(' ').collect();
    let [day, month, year, time, "GMT"] = fields[..] else {
        return None;
    };
    let month = MONTHS.iter().position(|m| *m == month)? as i64 + 1;
    let (day, year): (i64, i64) = (day.parse().ok()?, year.parse().ok()?);
    let hms: Vec<i64> = time
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, s] = hms[..] else { return None };
    if !(1..=31).contains(&day)
        || !(0..24).contains(&h)
        || !(0..60).contains(&m)
        || !(0..61).contains(&s)
    {
        return None;
    }
    let seconds = days_from_civil(year, month, day) * 86_400 + h * 3_600 + m * 60 + s;
    Some(UNIX_EPOCH + Duration::from_secs(u64::try_from(seconds).ok()?))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    fn server_error() -> ProviderError {
        ProviderError::Server {
            provider: "test".into(),
            status: 503,
            message: "busy".into(),
        }
    }

    #[test]
    fn backoff_doubles_up_to_the_ceiling_and_retry_after_replaces_it() {
        let policy = RetryPolicy {
            max_backoff: Duration::from_millis(300),
            ..RetryPolicy::new(4, Duration::from_millis(100))
        };
        let waits: Vec<_> = (0..5).map(|n| policy.delay(n, None)).collect();
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(waits, [ms(100), ms(200), ms(300), ms(300), None]);
        assert_eq!(policy.delay(0, Some(Duration::from_secs(2))), ms(2000));
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(61))),
            None,
            "too long to wait"
        );
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("soon"), None);
        let now = UNIX_EPOCH + Duration::from_secs(784_111_767); // Sun, 06 Nov 1994 08:49:27 GMT
        let at = |v| parse_retry_after_at(v, now);
        assert_eq!(
            at("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            at("Sun, 06 Nov 1994 08:40:00 GMT"),
            Some(Duration::ZERO),
            "past"
        );
        assert_eq!(at("Sun, 06 Nov 1994 08:49:37 CET"), None);
        assert_eq!(at("Sun, 06 Foo 1994 08:49:37 GMT"), None);
        assert_eq!(
            parse_http_date("Thu, 01 Jan 2026 00:00:00 GMT"),
            Some(UNIX_EPOCH + Duration::from_secs(1_767_225_600))
        );
    }

    #[tokio::test]
    async fn retry_stops_at_success_and_counts_attempts() {
        let calls = AtomicU32::new(0);
        let policy = RetryPolicy::new(3, Duration::from_millis(1));
        let out = retry(&policy, |n| {
            calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if n < 3 {
                    Err(server_error().into())
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(out, Ok(3));
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn retry_gives_up_after_max_retries_and_never_retries_permanent_errors() {
        let policy = RetryPolicy::new(2, Duration::from_millis(1));
        let out: Result<(), _> = retry(&policy, |_| async { Err(server_error().into()) }).await;
        assert_eq!(
            out,
            Err(Failed {
                error: server_error(),
                attempts: 3
            })
        );

        let bad = ProviderError::invalid_request("test", "bad model");
        let out: Result<(), _> = retry(&policy, |_| {
            let bad = bad.clone();
            async move { Err(bad.into()) }
        })
        .await;
        assert_eq!(
            out,
            Err(Failed {
                error: bad,
                attempts: 1
            })
        );
    }
}
