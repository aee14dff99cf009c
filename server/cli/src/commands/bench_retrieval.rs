//! `vai bench retrieval`: how well and how fast the offline default finds the right document.
//! The labelled questions of `server/providers/eval/retrieval-questions.json` are searched in
//! the sample knowledge base with the local model and store — vector order alone, then that
//! candidate list reranked by the local reranker — and each order is scored against the labels.
//! Figures, not assertions: they are recorded in docs/benchmarks.md.

use crate::exit::EXIT_OK;
use clap::Args;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vai_providers::local::embed::{LocalEmbedder, ModelLocation};
use vai_providers::local::rerank::LocalReranker;
use vai_providers::local::sample::{self, SAMPLE_DB};
use vai_providers::local::store::LocalStore;
use vai_providers::{
    EmbedInputType, EmbedRequest, Embedder, Namespace, RerankRequest, Reranker, Settings,
    VectorQuery, VectorStore,
};

/// The labelled questions, embedded in the binary.
const QUESTIONS: &str = include_str!("../../../providers/eval/retrieval-questions.json");

/// Measure retrieval on the offline default (local model, local store, local reranker),
/// whatever providers are configured: hit@1, hit@3 and MRR@10 over the labelled questions, for
/// vector order and for vector order reranked, and the time each takes.
#[derive(Debug, Args)]
pub(super) struct RetrievalArgs {
    /// Candidates fetched by vector search and handed to the reranker.
    #[arg(long, default_value_t = 20)]
    pub candidates: usize,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Deserialize)]
struct Labelled {
    questions: Vec<Question>,
}

#[derive(Debug, Deserialize)]
struct Question {
    question: String,
    collection: String,
    /// Slugs of the documents that answer it, best first.
    relevant: Vec<String>,
}

/// Hits at 1 and 3 and reciprocal ranks (within 10) summed over questions.
#[derive(Debug, Default)]
struct Scores {
    hit1: usize,
    hit3: usize,
    rr10: f64,
    times: Vec<Duration>,
}

impl Scores {
    /// Score one ranking of slugs against the relevant ones.
    fn add(&mut self, ranked: &[String], relevant: &[String], took: Duration) {
        let first = ranked.iter().position(|s| relevant.contains(s));
        self.hit1 += usize::from(first == Some(0));
        self.hit3 += usize::from(first.is_some_and(|r| r < 3));
        self.rr10 += first
            .filter(|&r| r < 10)
            .map_or(0.0, |r| 1.0 / (r + 1) as f64);
        self.times.push(took);
    }

    fn figures(&self, n: usize) -> Value {
        let mut ms: Vec<f64> = self
            .times
            .iter()
            .map(|d| d.as_secs_f64() * 1000.0)
            .collect();
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| {
            ms.get(((ms.len() as f64 - 1.0) * q).round() as usize)
                .copied()
        };
        json!({
            "hit1": self.hit1 as f64 / n as f64,
            "hit3": self.hit3 as f64 / n as f64,
            "mrr10": self.rr10 / n as f64,
            "medianMs": at(0.5),
            "p95Ms": at(0.95),
        })
    }
}

pub(super) async fn run(args: RetrievalArgs) -> anyhow::Result<u8> {
    let labelled: Labelled = serde_json::from_str(QUESTIONS)?;
    let n = labelled.questions.len();
    let candidates = args.candidates.max(1);
    let settings = Settings::default();

    let embedder: Arc<dyn Embedder> = Arc::new(LocalEmbedder::new(ModelLocation::Discover));
    let store = Arc::new(LocalStore::open(&LocalStore::default_path()?)?);
    sample::ensure_seeded(store.as_ref(), embedder.as_ref()).await?;
    let reranker = LocalReranker::new(embedder.clone()).with_stored_vectors(store.clone());

    // One question first, untimed: the model loads on first use.
    if let Some(q) = labelled.questions.first() {
        let hits = search(embedder.as_ref(), &store, &settings, q, candidates).await?;
        rerank(&reranker, q, &hits).await?;
    }

    let (mut vector, mut reranked) = (Scores::default(), Scores::default());
    for q in &labelled.questions {
        let t = Instant::now();
        let hits = search(embedder.as_ref(), &store, &settings, q, candidates).await?;
        let took = t.elapsed();
        let slugs: Vec<String> = hits.iter().map(|h| slug_of(&h.document)).collect();
        vector.add(&slugs, &q.relevant, took);

        let t = Instant::now();
        let order = rerank(&reranker, q, &hits).await?;
        let took = t.elapsed();
        let slugs: Vec<String> = order
            .results
            .iter()
            .map(|r| slugs[r.index].clone())
            .collect();
        reranked.add(&slugs, &q.relevant, took);
    }

    let figures = json!({
        "questions": n,
        "candidates": candidates,
        "vector": vector.figures(n),
        "reranked": reranked.figures(n),
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(EXIT_OK);
    }
    println!(
        "{n} labelled questions over the sample knowledge base, {candidates} candidates each (offline default)\n"
    );
    println!(
        "{:<26} {:>6} {:>6} {:>7} {:>11} {:>9}",
        "", "hit@1", "hit@3", "MRR@10", "median ms", "p95 ms"
    );
    for (label, f, what) in [
        (
            "vector search",
            &figures["vector"],
            "(embed query + search)",
        ),
        (
            "vector search + rerank",
            &figures["reranked"],
            "(the rerank alone)",
        ),
    ] {
        println!(
            "{label:<26} {:>6.2} {:>6.2} {:>7.3} {:>11.1} {:>9.1}  {what}",
            f["hit1"].as_f64().unwrap_or(0.0),
            f["hit3"].as_f64().unwrap_or(0.0),
            f["mrr10"].as_f64().unwrap_or(0.0),
            f["medianMs"].as_f64().unwrap_or(0.0),
            f["p95Ms"].as_f64().unwrap_or(0.0),
        );
    }
    Ok(EXIT_OK)
}

/// The `candidates` nearest documents of `question`'s collection.
async fn search(
    embedder: &dyn Embedder,
    store: &LocalStore,
    settings: &Settings,
    question: &Question,
    candidates: usize,
) -> Result<Vec<vai_providers::ScoredDocument>, vai_providers::ProviderError> {
    let query = embedder
        .embed(EmbedRequest {
            texts: vec![question.question.clone()],
            model: LocalEmbedder::MODEL.into(),
            input_type: Some(EmbedInputType::Query),
            dimensions: None,
        })
        .await?;
    let vector = query.embeddings.into_iter().next().unwrap_or_default();
    store
        .vector_search(VectorQuery {
            namespace: Namespace::new(SAMPLE_DB, &question.collection),
            index: settings.vector_index.clone(),
            path: settings.embedding_field.clone(),
            vector,
            limit: candidates,
            num_candidates: candidates,
            filter: None,
            fields: vec!["text".into(), "metadata".into()],
        })
        .await
}

/// `hits` reranked against the question, best first.
async fn rerank(
    reranker: &LocalReranker,
    question: &Question,
    hits: &[vai_providers::ScoredDocument],
) -> Result<vai_providers::RerankResponse, vai_providers::ProviderError> {
    let documents = hits.iter().map(|h| text_of(&h.document)).collect();
    reranker
        .rerank(RerankRequest {
            query: question.question.clone(),
            documents,
            model: String::new(),
            top_k: None,
        })
        .await
}

fn slug_of(document: &serde_json::Map<String, Value>) -> String {
    document["metadata"]["slug"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn text_of(document: &serde_json::Map<String, Value>) -> String {
    document
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vai_providers::local::sample::DOCS;

    /// The labels name documents that exist, in the question's collection, and every collection
    /// is asked about: a typo would silently score as a miss.
    #[test]
    fn every_label_is_a_document_of_its_collection() {
        let labelled: Labelled = serde_json::from_str(QUESTIONS).unwrap();
        assert!(labelled.questions.len() >= 40);
        for collection in sample::SAMPLE_COLLECTIONS {
            let asked = labelled
                .questions
                .iter()
                .filter(|q| q.collection == *collection)
                .count();
            assert!(asked >= 10, "{collection}: {asked} questions");
        }
        for q in &labelled.questions {
            assert!((1..=3).contains(&q.relevant.len()), "{}", q.question);
            for slug in &q.relevant {
                assert!(
                    DOCS.iter()
                        .any(|d| d.collection == q.collection && d.slug == slug),
                    "{:?}: no document {}/{slug}",
                    q.question,
                    q.collection
                );
            }
        }
    }

    #[test]
    fn scores_count_the_first_relevant_document() {
        let mut s = Scores::default();
        let ranked = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let relevant = ranked(&["b", "z"]);
        s.add(&ranked(&["b", "a"]), &relevant, Duration::ZERO);
        s.add(&ranked(&["a", "c", "z"]), &relevant, Duration::ZERO);
        s.add(&ranked(&["a", "c", "d"]), &relevant, Duration::ZERO);
        assert_eq!((s.hit1, s.hit3), (1, 2));
        assert!((s.rr10 - (1.0 + 1.0 / 3.0)).abs() < 1e-9);
    }
}
