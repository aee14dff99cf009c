//! Step-through runs: a pause before each step that will run (or only before breakpoints), which
//! whoever follows the run ends with Next or Continue; a limit on how long a pause may wait; and
//! a minimum visible duration per step (`pace`). The scheduler decides where to pause and keeps
//! running the steps already started; this module holds the handle it shares with the resumers
//! (what a pause shows is `preview`).

use crate::events::ResumeAction;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::Notify;

/// How long a run may stay paused without Next or Continue before it is cancelled.
pub const PAUSE_IDLE_LIMIT: Duration = Duration::from_secs(10 * 60);

/// Where a step-through run pauses and how fast it goes: as a run is started with them (the
/// playground's `StartRun.stepThrough`), and as they are now (Next turns `pauseEach` on,
/// Continue off; a resume may replace the breakpoints). Each field may be left out of JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StepThrough {
    /// Pause before every step that runs.
    #[serde(default)]
    pub pause_each: bool,
    /// Step ids to pause before, whatever `pauseEach` says; sorted, without repeats.
    #[serde(default)]
    pub breakpoints: Vec<String>,
    /// Each step is shown running for at least this long: its end is reported no earlier (0:
    /// at once). Its reported duration stays its own.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub pace_ms: u64,
}

/// One resume (the body of the playground's `POST /api/runs/{id}/resume`): the action, and the
/// breakpoints from now on when they change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Resume {
    pub action: ResumeAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub breakpoints: Option<Vec<String>>,
}

impl From<ResumeAction> for Resume {
    fn from(action: ResumeAction) -> Self {
        Self {
            action,
            breakpoints: None,
        }
    }
}

/// A resume that found the run not paused (it is running, or it has ended).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the run is not paused")]
pub struct NotPaused;

/// The control of one step-through run: cheap to clone, shared by the run and whoever resumes
/// it. Only one step is paused at a time.
#[derive(Debug, Clone)]
pub struct Stepping(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    pace_ms: u64,
    idle_limit: Duration,
    gate: Mutex<Gate>,
    resumed: Notify,
}

#[derive(Debug)]
struct Gate {
    pause_each: bool,
    breakpoints: BTreeSet<String>,
    /// The step the run waits before.
    paused: Option<String>,
    /// A resume the run has not taken up yet.
    pending: Option<Resume>,
}

impl Stepping {
    /// A run going by `settings`, cancelled when a pause waits `idle_limit` for a resume
    /// (normally [`PAUSE_IDLE_LIMIT`]; `Duration::MAX` waits as long as it takes).
    pub fn new(settings: StepThrough, idle_limit: Duration) -> Self {
        Self(Arc::new(Shared {
            pace_ms: settings.pace_ms,
            idle_limit,
            gate: Mutex::new(Gate {
                pause_each: settings.pause_each,
                breakpoints: settings.breakpoints.into_iter().collect(),
                paused: None,
                pending: None,
            }),
            resumed: Notify::new(),
        }))
    }

    fn gate(&self) -> MutexGuard<'_, Gate> {
        // Nothing that can panic runs under the lock: a poisoned gate is still whole.
        self.0.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// End the pause: `Next` pauses again before the next step, `Continue` only at
    /// breakpoints. Returns the step that goes ahead. Of two resumes of one pause (two tabs),
    /// the first wins and the second is `NotPaused`.
    pub fn resume(&self, resume: impl Into<Resume>) -> Result<String, NotPaused> {
        let mut resume = resume.into();
        let mut gate = self.gate();
        let step = gate.paused.take().ok_or(NotPaused)?;
        gate.pause_each = resume.action == ResumeAction::Next;
        if let Some(breakpoints) = &mut resume.breakpoints {
            gate.breakpoints = breakpoints.drain(..).collect();
            // As the run will report them: sorted, without repeats.
            breakpoints.extend(gate.breakpoints.iter().cloned());
        }
        gate.pending = Some(resume);
        drop(gate);
        // A permit is kept if the run is not waiting yet, so no resume is lost.
        self.0.resumed.notify_one();
        Ok(step)
    }

    /// The step the run is paused before, if it is.
    pub fn paused(&self) -> Option<String> {
        self.gate().paused.clone()
    }

    /// The settings now: `pause_each` and the breakpoints change with each resume.
    pub fn settings(&self) -> StepThrough {
        let gate = self.gate();
        StepThrough {
            pause_each: gate.pause_each,
            breakpoints: gate.breakpoints.iter().cloned().collect(),
            pace_ms: self.0.pace_ms,
        }
    }

    pub fn pace(&self) -> Duration {
        Duration::from_millis(self.0.pace_ms)
    }

    pub fn idle_limit(&self) -> Duration {
        self.0.idle_limit
    }

    /// Whether the run pauses before step `id`, and if so whether at a breakpoint.
    pub(super) fn pauses_at(&self, id: &str) -> Option<bool> {
        let gate = self.gate();
        let breakpoint = gate.breakpoints.contains(id);
        (gate.pause_each || breakpoint).then_some(breakpoint)
    }

    /// The run waits before step `id` from now on.
    pub(super) fn pause(&self, id: &str) {
        let mut gate = self.gate();
        gate.paused = Some(id.to_string());
        gate.pending = None;
    }

    /// The run ended: nothing waits any more, so a resume is `NotPaused`.
    pub(super) fn close(&self) {
        let mut gate = self.gate();
        gate.paused = None;
        gate.pending = None;
    }

    /// The next resume.
    pub(super) async fn resumed(&self) -> Resume {
        loop {
            if let Some(resume) = self.gate().pending.take() {
                return resume;
            }
            // A permit left by a resume already taken up wakes this once; the loop waits again.
            self.0.resumed.notified().await;
        }
    }
}

/// The next resume of `stepping`; never, without one.
pub(super) async fn resumed(stepping: Option<&Stepping>) -> Resume {
    match stepping {
        Some(stepping) => stepping.resumed().await,
        None => std::future::pending().await,
    }
}

/// `d` for people: "10 minutes", "1 minute", "30 seconds", "250 ms".
pub(super) fn describe(d: Duration) -> String {
    let plural = |n: u128, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let ms = d.as_millis();
    if ms >= 60_000 && ms.is_multiple_of(60_000) {
        plural(ms / 60_000, "minute")
    } else if ms >= 1000 && ms.is_multiple_of(1000) {
        plural(ms / 1000, "second")
    } else {
        format!("{ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(describe(PAUSE_IDLE_LIMIT), "10 minutes");
        assert_eq!(describe(Duration::from_secs(60)), "1 minute");
        assert_eq!(describe(Duration::from_secs(90)), "90 seconds");
        assert_eq!(describe(Duration::from_millis(250)), "250 ms");
    }

    #[test]
    fn the_first_of_two_resumes_wins() {
        let settings = StepThrough {
            pause_each: true,
            ..StepThrough::default()
        };
        let stepping = Stepping::new(settings, PAUSE_IDLE_LIMIT);
        assert_eq!(stepping.resume(ResumeAction::Next), Err(NotPaused));
        stepping.pause("a");
        assert_eq!(stepping.paused().as_deref(), Some("a"));
        assert_eq!(stepping.resume(ResumeAction::Continue).as_deref(), Ok("a"));
        assert_eq!(stepping.resume(ResumeAction::Next), Err(NotPaused));
        assert!(!stepping.settings().pause_each);
        assert_eq!(stepping.pauses_at("b"), None);
    }
}
