//! The event sink that records a run's spans on the way through: every event is passed on
//! unchanged; the spans it ends are queued for the exporter, never waited for.

use crate::spans::RunSpans;
use opentelemetry::InstrumentationScope;
use opentelemetry_sdk::trace::SpanData;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;
use vai_workflow::{EventSink, RunEvent};

/// Where ended spans go (the exporter's queue); must not block.
pub(crate) type SendSpan = Arc<dyn Fn(SpanData) + Send + Sync>;

pub(crate) struct TraceSink {
    inner: Arc<dyn EventSink>,
    spans: Mutex<RunSpans>,
    send: SendSpan,
}

impl TraceSink {
    pub(crate) fn new(
        inner: Arc<dyn EventSink>,
        run_id: &str,
        send: SendSpan,
        scope: InstrumentationScope,
    ) -> Self {
        TraceSink {
            inner,
            spans: Mutex::new(RunSpans::new(run_id, scope)),
            send,
        }
    }
}

impl EventSink for TraceSink {
    fn emit(&self, event: RunEvent) {
        let ended = self
            .spans
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .record(&event, SystemTime::now());
        for span in ended {
            (self.send)(span);
        }
        self.inner.emit(event);
    }
}

impl Drop for TraceSink {
    /// A run that stopped without saying it finished still leaves its spans.
    fn drop(&mut self) {
        let spans = self.spans.get_mut().unwrap_or_else(PoisonError::into_inner);
        for span in spans.abandon(SystemTime::now()) {
            (self.send)(span);
        }
    }
}
