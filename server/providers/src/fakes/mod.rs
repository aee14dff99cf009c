//! Deterministic in-memory fakes of every provider trait — **for tests only** (feature `fakes`).
//!
//! They do not approximate real models: [`FakeEmbedder`] hashes words into buckets,
//! [`FakeReranker`] counts shared words, [`MemoryStore`] keeps documents in a map and
//! [`FakeLlm`] echoes its prompt. They exist so tools and workflows can be tested without a
//! network; each records its requests and can be told to fail its next call.

mod embedder;
mod llm;
mod reranker;
mod store;

pub use embedder::FakeEmbedder;
pub use llm::FakeLlm;
pub use reranker::FakeReranker;
pub use store::MemoryStore;

use crate::ProviderError;
use std::collections::VecDeque;
use std::sync::Mutex;

/// Lower-cased alphanumeric words: the fakes' whole notion of text.
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Errors queued by a test, returned by the next calls instead of an answer.
#[derive(Debug, Default)]
struct Faults(Mutex<VecDeque<ProviderError>>);

impl Faults {
    fn push(&self, error: ProviderError) {
        lock(&self.0).push_back(error);
    }

    fn take(&self) -> Result<(), ProviderError> {
        match lock(&self.0).pop_front() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// A log of the requests a fake received.
#[derive(Debug)]
struct Log<T>(Mutex<Vec<T>>);

impl<T: Clone> Log<T> {
    fn new() -> Self {
        Log(Mutex::new(Vec::new()))
    }

    fn push(&self, item: T) {
        lock(&self.0).push(item);
    }

    fn all(&self) -> Vec<T> {
        lock(&self.0).clone()
    }
}

/// Lock a mutex, ignoring poisoning: a panicking test must not cascade into unrelated asserts.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
