//! `vai bench retrieval`: how well and how fast the offline default finds the right document.
//! The labelled questions of `server/providers/eval/retrieval-questions.json` are searched in
//! the sample knowledge base with the local model and store — vector order alone, then that
//! candidate list reranked by each method of the local reranker — and each order is scored
//! against the labels, over the whole set and over each split: the `tuning` questions the
//! methods' weights were chosen on, and the `heldout` ones written before that choice.
//! Figures, not assertions: they are recorded in docs/benchmarks.md.

use super::bench_store::SampleStore;
use crate::exit::EXIT_OK;
use clap::Args;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vai_providers::local::embed::{LocalEmbedder, ModelLocation};
use vai_providers::local::rerank::{LocalReranker, RerankMethod};
use vai_providers::local::sample::{DOCS, SAMPLE_DB};
use vai_providers::local::store::LocalStore;
use vai_providers::{
    EmbedInputType, EmbedRequest, Embedder, Namespace, RerankRequest, Reranker, Settings,
    VectorQuery, VectorStore,
};

/// The method chosen from those below (on the tuning questions, confirmed on the held-out ones;
/// see docs/benchmarks.md): the whole set's `reranked` figures are its.
const CHOSEN: &str = "lateInteraction";

/// The labelled questions, embedded in the binary.
const QUESTIONS: &str = include_str!("../../../providers/eval/retrieval-questions.json");

/// Measure retrieval on the offline default (local model, local store, local reranker),
/// whatever providers are configured: hit@1, hit@3 and MRR@10 over the labelled questions, for
/// vector order and for vector order reranked by each local method, on the tuning and the
/// held-out questions, and the time each takes.
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
    split: Split,
}

/// Which half of the questions one belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Split {
    /// The questions the reranker's methods and weights were chosen on.
    Tuning,
    /// Questions written before those choices and not looked at while making them.
    Heldout,
}

impl Split {
    const ALL: [Split; 2] = [Split::Tuning, Split::Heldout];

    fn key(self) -> &'static str {
        match self {
            Split::Tuning => "tuning",
            Split::Heldout => "heldout",
        }
    }
}

/// One order's result on one question.
#[derive(Debug)]
struct Outcome {
    split: Split,
    /// Rank of the first relevant document, when there is one.
    first: Option<usize>,
    took: Duration,
}

/// One order's results, question by question.
#[derive(Debug, Default)]
struct Outcomes(Vec<Outcome>);

impl Outcomes {
    /// Score one ranking of slugs against the relevant ones.
    fn add(&mut self, split: Split, ranked: &[String], relevant: &[String], took: Duration) {
        let first = ranked.iter().position(|s| relevant.contains(s));
        self.0.push(Outcome { split, first, took });
    }

    /// hit@1, hit@3, MRR@10 and times over the questions of `split` (all when `None`).
    fn figures(&self, split: Option<Split>) -> Value {
        let of: Vec<&Outcome> = self
            .0
            .iter()
            .filter(|o| split.is_none_or(|s| o.split == s))
            .collect();
        let n = of.len().max(1) as f64;
        let share = |hit: fn(usize) -> bool| {
            of.iter().filter(|o| o.first.is_some_and(hit)).count() as f64 / n
        };
        let rr10: f64 = of
            .iter()
            .filter_map(|o| o.first.filter(|&r| r < 10))
            .map(|r| 1.0 / (r + 1) as f64)
            .sum();
        let mut ms: Vec<f64> = of.iter().map(|o| o.took.as_secs_f64() * 1000.0).collect();
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| {
            ms.get(((ms.len() as f64 - 1.0) * q).round() as usize)
                .copied()
        };
        json!({
            "questions": of.len(),
            "hit1": share(|r| r == 0),
            "hit3": share(|r| r < 3),
            "mrr10": rr10 / n,
            "medianMs": at(0.5),
            "p95Ms": at(0.95),
            "totalMs": ms.iter().sum::<f64>(),
        })
    }
}

/// A reranker under test: its key in the JSON, its row label and the reranker.
struct Candidate {
    key: &'static str,
    label: &'static str,
    reranker: LocalReranker,
    outcomes: Outcomes,
}

pub(super) async fn run(args: RetrievalArgs) -> anyhow::Result<u8> {
    let labelled: Labelled = serde_json::from_str(QUESTIONS)?;
    let n = labelled.questions.len();
    let candidates = args.candidates.max(1);
    let settings = Settings::default();

    let local = Arc::new(LocalEmbedder::new(ModelLocation::Discover));
    let embedder: Arc<dyn Embedder> = local.clone();
    let sample = SampleStore::seeded(embedder.as_ref()).await?;
    let store = sample.store.clone();
    let base = || LocalReranker::new(embedder.clone()).with_stored_vectors(store.clone());
    let mut rerankers = [
        ("fused", "+ rerank: cosine + BM25", base()),
        (
            "sentences",
            "+ rerank: + best sentence",
            base().with_method(RerankMethod::Sentences),
        ),
        (
            "lateInteraction",
            "+ rerank: late interaction",
            base().with_token_embedder(local),
        ),
    ]
    .map(|(key, label, reranker)| Candidate {
        key,
        label,
        reranker,
        outcomes: Outcomes::default(),
    });

    // One question first, untimed: the models load on first use.
    if let Some(q) = labelled.questions.first() {
        let hits = search(embedder.as_ref(), &store, &settings, q, candidates).await?;
        for c in &rerankers {
            rerank(&c.reranker, q, &hits).await?;
        }
    }
    // What the methods keep per document, computed for the whole corpus before timing, as an
    // index would hold it; timed on its own.
    let corpus: Vec<String> = DOCS.iter().map(|d| d.text.trim().to_string()).collect();
    let mut prepare_ms = Map::new();
    for c in &rerankers {
        let t = Instant::now();
        c.reranker.prepare(&corpus).await?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        prepare_ms.insert(c.key.into(), json!(ms));
    }

    let mut vector = Outcomes::default();
    for q in &labelled.questions {
        let t = Instant::now();
        let hits = search(embedder.as_ref(), &store, &settings, q, candidates).await?;
        let took = t.elapsed();
        let slugs: Vec<String> = hits.iter().map(|h| slug_of(&h.document)).collect();
        vector.add(q.split, &slugs, &q.relevant, took);

        for c in &mut rerankers {
            let t = Instant::now();
            let order = rerank(&c.reranker, q, &hits).await?;
            let took = t.elapsed();
            let ranked: Vec<String> = order
                .results
                .iter()
                .map(|r| slugs[r.index].clone())
                .collect();
            c.outcomes.add(q.split, &ranked, &q.relevant, took);
        }
    }

    let orders = |split: Option<Split>| {
        let mut m = Map::new();
        m.insert("vector".into(), vector.figures(split));
        for c in &rerankers {
            m.insert(c.key.into(), c.outcomes.figures(split));
        }
        Value::Object(m)
    };
    let chosen = rerankers
        .iter()
        .find(|c| c.key == CHOSEN)
        .map_or(Value::Null, |c| c.outcomes.figures(None));
    let mut splits = Map::new();
    for s in Split::ALL {
        splits.insert(s.key().into(), orders(Some(s)));
    }
    let figures = json!({
        "questions": n,
        "candidates": candidates,
        "vector": vector.figures(None),
        "reranked": chosen,
        "rerankedBy": CHOSEN,
        "rerankers": orders(None),
        "prepareMs": prepare_ms,
        "splits": splits,
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(EXIT_OK);
    }
    print_table(&figures, &rerankers, n, candidates);
    Ok(EXIT_OK)
}

fn print_table(figures: &Value, rerankers: &[Candidate], n: usize, candidates: usize) {
    println!(
        "{n} labelled questions over the sample knowledge base, {candidates} candidates each (offline default)"
    );
    let sections = [
        ("tuning", &figures["splits"]["tuning"]),
        ("held-out", &figures["splits"]["heldout"]),
        ("all", &figures["rerankers"]),
    ];
    for (name, orders) in sections {
        let count = orders["vector"]["questions"].as_u64().unwrap_or(0);
        println!(
            "\n{:<30} {:>6} {:>6} {:>7} {:>11} {:>9} {:>10}",
            format!("{name} ({count} questions)"),
            "hit@1",
            "hit@3",
            "MRR@10",
            "median ms",
            "p95 ms",
            "× search"
        );
        let search_ms = orders["vector"]["totalMs"].as_f64().unwrap_or(0.0);
        let rows = std::iter::once(("vector", "vector search (embed + search)"))
            .chain(rerankers.iter().map(|c| (c.key, c.label)));
        for (key, label) in rows {
            let f = &orders[key];
            let total = f["totalMs"].as_f64().unwrap_or(0.0);
            // The rerank runs after the search: its whole run costs both.
            let whole = if key == "vector" {
                total
            } else {
                search_ms + total
            };
            println!(
                "{label:<30} {:>6.2} {:>6.2} {:>7.3} {:>11.1} {:>9.1} {:>9.1}×",
                f["hit1"].as_f64().unwrap_or(0.0),
                f["hit3"].as_f64().unwrap_or(0.0),
                f["mrr10"].as_f64().unwrap_or(0.0),
                f["medianMs"].as_f64().unwrap_or(0.0),
                f["p95Ms"].as_f64().unwrap_or(0.0),
                whole / search_ms.max(f64::MIN_POSITIVE),
            );
        }
    }
    println!(
        "\nTimes of a rerank row are the rerank alone; × search is (search + rerank) / search over \
         the run.\nKept per document before timing, for all {} sample documents:",
        DOCS.len()
    );
    for c in rerankers {
        let ms = figures["prepareMs"][c.key].as_f64().unwrap_or(0.0);
        println!("  {:<28} {ms:>9.0} ms", c.label);
    }
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

fn slug_of(document: &Map<String, Value>) -> String {
    document["metadata"]["slug"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn text_of(document: &Map<String, Value>) -> String {
    document
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests;
