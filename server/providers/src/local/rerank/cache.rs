//! What a rerank method computes once per document (its sentences' vectors, its token vectors),
//! kept for the next rerank that meets the same text.

use crate::ProviderError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The size of a cached value, in floats.
pub(super) trait Floats {
    fn floats(&self) -> usize;
}

/// A document's sentence vectors.
impl Floats for Vec<Vec<f32>> {
    fn floats(&self) -> usize {
        self.iter().map(Vec::len).sum()
    }
}

/// Values by document text, at most `budget` floats in all: an insert that would pass the
/// budget empties the cache first (the sample corpus's token vectors take about a third of
/// the default budget).
pub(super) struct DocumentCache<T> {
    budget: usize,
    inner: Mutex<Entries<T>>,
}

struct Entries<T> {
    by_text: HashMap<String, Arc<T>>,
    floats: usize,
}

impl<T: Floats> DocumentCache<T> {
    pub(super) fn new(budget: usize) -> Self {
        DocumentCache {
            budget,
            inner: Mutex::new(Entries {
                by_text: HashMap::new(),
                floats: 0,
            }),
        }
    }

    /// Each document's value: cached, or computed by one call of `compute` for all those
    /// missing (each distinct text once), which also reports the tokens it read.
    pub(super) async fn get_or_compute<F, Fut>(
        &self,
        documents: &[String],
        compute: F,
    ) -> Result<(Vec<Arc<T>>, u64), ProviderError>
    where
        F: FnOnce(Vec<String>) -> Fut,
        Fut: Future<Output = Result<(Vec<T>, u64), ProviderError>>,
    {
        let mut found: Vec<Option<Arc<T>>> = {
            let inner = self.lock();
            documents
                .iter()
                .map(|d| inner.by_text.get(d).cloned())
                .collect()
        };
        let mut missing: Vec<String> = documents
            .iter()
            .zip(&found)
            .filter(|(_, f)| f.is_none())
            .map(|(d, _)| d.clone())
            .collect();
        missing.sort();
        missing.dedup();
        if missing.is_empty() {
            return Ok((found.into_iter().flatten().collect(), 0));
        }
        let (values, tokens) = compute(missing.clone()).await?;
        if values.len() != missing.len() {
            return Err(ProviderError::other(
                "local",
                "rerank: a document was computed the wrong number of times",
            ));
        }
        let mut inner = self.lock();
        let mut computed = HashMap::with_capacity(missing.len());
        for (text, value) in missing.into_iter().zip(values) {
            let size = value.floats();
            if inner.floats + size > self.budget {
                inner.by_text.clear();
                inner.floats = 0;
            }
            let value = Arc::new(value);
            inner.floats += size;
            inner.by_text.insert(text.clone(), value.clone());
            computed.insert(text, value);
        }
        for (slot, d) in found.iter_mut().zip(documents) {
            if slot.is_none() {
                *slot = computed.get(d).cloned();
            }
        }
        Ok((found.into_iter().flatten().collect(), tokens))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<T>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Floats for Vec<f32> {
        fn floats(&self) -> usize {
            self.len()
        }
    }

    fn lengths(texts: Vec<String>) -> (Vec<Vec<f32>>, u64) {
        let values = texts.iter().map(|t| vec![0.0; t.len()]).collect();
        (values, texts.len() as u64)
    }

    #[tokio::test]
    async fn each_distinct_text_is_computed_once_and_the_budget_empties_the_cache() {
        let cache = DocumentCache::<Vec<f32>>::new(6);
        let docs = |d: &[&str]| d.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (values, computed) = cache
            .get_or_compute(&docs(&["ab", "cde", "ab"]), |m| async { Ok(lengths(m)) })
            .await
            .unwrap();
        assert_eq!(
            values.iter().map(|v| v.len()).collect::<Vec<_>>(),
            [2, 3, 2]
        );
        assert_eq!(computed, 2, "ab once, cde once");
        let (_, computed) = cache
            .get_or_compute(&docs(&["cde", "ab"]), |_| async {
                Err(ProviderError::other("test", "not called"))
            })
            .await
            .unwrap();
        assert_eq!(computed, 0);
        // 5 floats held; 4 more pass the budget of 6, so the cache starts again.
        cache
            .get_or_compute(&docs(&["wxyz"]), |m| async { Ok(lengths(m)) })
            .await
            .unwrap();
        let (_, computed) = cache
            .get_or_compute(&docs(&["ab"]), |m| async { Ok(lengths(m)) })
            .await
            .unwrap();
        assert_eq!(computed, 1);
    }
}
