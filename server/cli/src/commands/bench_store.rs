//! The store the quality benchmarks ask (`vai bench answers`, `vai bench retrieval`): a fresh one
//! in a directory of its own under the system's temporary directory, seeded with the sample
//! corpus only — what a person ingested into their own store must not move the figures. The
//! directory is removed when the value is dropped.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use vai_providers::Embedder;
use vai_providers::local::sample;
use vai_providers::local::store::LocalStore;

pub(crate) struct SampleStore {
    pub(crate) store: Arc<LocalStore>,
    dir: PathBuf,
}

impl SampleStore {
    /// Create the directory (a new one: never an existing path) and seed the store with
    /// `embedder`'s vectors of the sample corpus.
    pub(crate) async fn seeded(embedder: &dyn Embedder) -> anyhow::Result<SampleStore> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("vai-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        let sample = SampleStore {
            store: Arc::new(LocalStore::open(&dir.join("store.sqlite3"))?),
            dir,
        };
        sample::ensure_seeded(sample.store.as_ref(), embedder).await?;
        Ok(sample)
    }
}

impl Drop for SampleStore {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
