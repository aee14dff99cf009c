//! `vai bench answers`: how far offline answers can be trusted. The labelled questions of
//! `server/providers/eval/answer-questions.json` are asked of the chat pipeline (`vai chat`'s
//! engine) on the offline default — local embedder, a fresh store holding only the sample
//! knowledge base (`bench_store`), local reranker and LLM — and each answer is scored against
//! the labels: does it cite an answering document, is each sentence supported by a source it
//! cites, does it state the expected facts, does it decline what the corpus cannot answer, and
//! how long it took.
//! Figures, not assertions: they are recorded in docs/benchmarks.md, for the tuning half (where
//! the method's knobs were chosen) and the held-out half (never tuned on) apart.

use super::bench_store::SampleStore;
use crate::exit::EXIT_OK;
use clap::Args;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use vai_chat::{ChatEngine, ChatOptions, MemoryHistory};
use vai_contract::{AnswerMethod, ChatTurn, TurnStatus};
use vai_providers::grounded::{GroundedLlm, Tuning, content_words, split_sentences};
use vai_providers::llm::Llm;
use vai_providers::local::embed::{LocalEmbedder, ModelLocation};
use vai_providers::local::llm::LocalLlm;
use vai_providers::local::rerank::LocalReranker;
use vai_providers::local::sample::{self, SAMPLE_DB};
use vai_providers::{Embedder, Providers, Settings};

/// The labelled questions, embedded in the binary.
pub(crate) const QUESTIONS: &str = include_str!("../../../providers/eval/answer-questions.json");

/// Ask the labelled questions of the chat pipeline on the offline default and score the answers:
/// citing an answering document, sentences supported by a cited source, expected facts stated,
/// unanswerable questions declined, code blocks, and time per answer — for the tuning and the
/// held-out half apart.
#[derive(Debug, Args)]
pub(super) struct AnswersArgs {
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print each question with its answer and scores.
    #[arg(long)]
    pub verbose: bool,
    /// Only the questions of this split (tuning or heldout).
    #[arg(long, value_name = "SPLIT")]
    pub split: Option<String>,
    /// Knobs of the sentence choice, for tuning on the tuning half (see
    /// `vai_providers::grounded::Tuning`).
    #[arg(long, hide = true)]
    pub min_best: Option<f64>,
    #[arg(long, hide = true)]
    pub lexical_weight: Option<f64>,
    #[arg(long, hide = true)]
    pub join_within: Option<f64>,
    #[arg(long, hide = true)]
    pub rank_bonus: Option<f64>,
    #[arg(long, hide = true)]
    pub max_sentences: Option<usize>,
    #[arg(long, hide = true)]
    pub document_weight: Option<f64>,
    #[arg(long, hide = true)]
    pub join_other: Option<f64>,
    #[arg(long, hide = true)]
    pub join_first: Option<f64>,
    #[arg(long, hide = true)]
    pub with_title: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Labelled {
    pub(crate) questions: Vec<Question>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Question {
    pub(crate) id: String,
    pub(crate) question: String,
    pub(crate) collection: String,
    /// Slugs of the documents that answer it; empty when the corpus cannot.
    pub(crate) answers: Vec<String>,
    /// Phrases a correct answer states, verbatim from an answering document.
    pub(crate) facts: Vec<String>,
    pub(crate) split: String,
}

/// One answer, scored.
#[derive(Debug)]
struct Scored {
    answerable: bool,
    cites_answering: bool,
    declined: bool,
    /// Sentences, and those supported by a source they cite.
    sentences: usize,
    supported: usize,
    facts: usize,
    facts_stated: usize,
    code_block: bool,
    took: Duration,
}

pub(super) async fn run(args: AnswersArgs) -> anyhow::Result<u8> {
    let process = Instant::now();
    let labelled: Labelled = serde_json::from_str(QUESTIONS)?;
    let tuning = Tuning {
        min_best: args.min_best.unwrap_or(Tuning::DEFAULT.min_best),
        lexical_weight: args
            .lexical_weight
            .unwrap_or(Tuning::DEFAULT.lexical_weight),
        join_within: args.join_within.unwrap_or(Tuning::DEFAULT.join_within),
        rank_bonus: args.rank_bonus.unwrap_or(Tuning::DEFAULT.rank_bonus),
        max_sentences: args.max_sentences.unwrap_or(Tuning::DEFAULT.max_sentences),
        document_weight: args
            .document_weight
            .unwrap_or(Tuning::DEFAULT.document_weight),
        with_title: args.with_title.unwrap_or(Tuning::DEFAULT.with_title),
        join_other: args.join_other.unwrap_or(Tuning::DEFAULT.join_other),
        join_first: args.join_first.unwrap_or(Tuning::DEFAULT.join_first),
        ..Tuning::DEFAULT
    };
    // The store lives as long as the engine asks it.
    let (engine, _store) = offline_engine(tuning).await?;
    let options = ChatOptions {
        db: Some(SAMPLE_DB.to_string()),
        stream: false,
        ..ChatOptions::default()
    };

    let questions: Vec<&Question> = labelled
        .questions
        .iter()
        .filter(|q| args.split.as_deref().is_none_or(|s| s == q.split))
        .collect();
    let mut scored: Vec<(&str, Scored)> = Vec::new();
    let mut cold = None;
    for (n, q) in questions.iter().enumerate() {
        let options = ChatOptions {
            collection: Some(q.collection.clone()),
            ..options.clone()
        };
        let started = Instant::now();
        let turn = engine
            .ask(
                &format!("bench-{n}"),
                &q.question,
                &options,
                &mut |_| {},
                &CancellationToken::new(),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{}: {e}", q.id))?;
        let took = started.elapsed();
        cold.get_or_insert_with(|| process.elapsed());
        if turn.status != TurnStatus::Done {
            anyhow::bail!(
                "{}: the turn ended {:?}: {:?}",
                q.id,
                turn.status,
                turn.error
            );
        }
        let s = score(q, &turn, took);
        if args.verbose {
            let found = turn
                .sources
                .iter()
                .position(|s| {
                    sample::DOCS.iter().any(|d| {
                        d.collection == q.collection
                            && d.title() == s.title
                            && q.answers.iter().any(|a| a == d.slug)
                    })
                })
                .map_or("not retrieved".to_string(), |p| format!("source {}", p + 1));
            eprintln!(
                "{} [{}] {} ({found})\n  → {}\n  cites answering: {}, supported {}/{}, facts {}/{}, declined: {}\n",
                q.id,
                q.split,
                q.question,
                turn.answer,
                s.cites_answering,
                s.supported,
                s.sentences,
                s.facts_stated,
                s.facts,
                s.declined
            );
        }
        scored.push((q.split.as_str(), s));
    }

    let figures = |split: Option<&str>| {
        let part: Vec<&Scored> = scored
            .iter()
            .filter(|(s, _)| split.is_none_or(|want| *s == want))
            .map(|(_, s)| s)
            .collect();
        figures_of(&part)
    };
    let report = json!({
        "questions": scored.len(),
        "llm": LocalLlm::LABEL,
        "coldFirstAnswerMs": cold.map(|d| d.as_millis() as u64),
        "all": figures(None),
        "tuning": figures(Some("tuning")),
        "heldout": figures(Some("heldout")),
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(EXIT_OK);
    }
    println!(
        "{} labelled questions over the sample knowledge base, asked of `vai chat`'s pipeline on the offline default\n",
        scored.len()
    );
    println!(
        "{:<9} {:>9} {:>10} {:>7} {:>9} {:>12} {:>6} {:>10} {:>8}",
        "",
        "cites doc",
        "supported",
        "facts",
        "declined",
        "false decl.",
        "code",
        "median ms",
        "p90 ms"
    );
    for split in ["tuning", "heldout", "all"] {
        let f = &report[split];
        let pct = |k: &str| {
            f[k].as_f64()
                .map_or("-".to_string(), |v| format!("{:.0}%", v * 100.0))
        };
        println!(
            "{split:<9} {:>9} {:>10} {:>7} {:>9} {:>12} {:>6} {:>10.0} {:>8.0}",
            pct("citesAnsweringDoc"),
            pct("supportedSentences"),
            pct("statesFacts"),
            pct("unanswerableDeclined"),
            pct("answerableDeclined"),
            f["codeBlocks"],
            f["medianMs"].as_f64().unwrap_or(0.0),
            f["p90Ms"].as_f64().unwrap_or(0.0),
        );
    }
    if let Some(ms) = report["coldFirstAnswerMs"].as_u64() {
        println!(
            "\nfirst answer {ms} ms after the process started (a fresh sample store seeded and the models loaded on the way)"
        );
    }
    Ok(EXIT_OK)
}

/// `vai chat`'s engine on the offline default, with its history in memory.
async fn offline_engine(tuning: Tuning) -> anyhow::Result<(ChatEngine, SampleStore)> {
    let embedder: Arc<dyn Embedder> = Arc::new(LocalEmbedder::new(ModelLocation::Discover));
    let sample = SampleStore::seeded(embedder.as_ref()).await?;
    let store = sample.store.clone();
    let reranker = LocalReranker::new(embedder.clone()).with_stored_vectors(store.clone());
    let local = LocalLlm::discover().map_err(|e| anyhow::anyhow!("{e}"))?;
    let llm: Arc<dyn Llm> =
        Arc::new(GroundedLlm::new(Arc::new(local), embedder.clone()).with_tuning(tuning));
    let settings = Settings {
        fallback_db: Some(SAMPLE_DB.to_string()),
        default_embedding_model: LocalEmbedder::MODEL.to_string(),
        ..Settings::default()
    };
    let providers = Providers::none(settings)
        .with_embedder(embedder)
        .with_reranker(Arc::new(reranker))
        .with_store(store)
        .with_llm(llm.clone());
    let registry = vai_tools::registry(Arc::new(providers), vai_tools::http::HttpPolicy::default());
    let engine = ChatEngine::new(
        Arc::new(registry),
        Some(llm),
        Arc::new(MemoryHistory::new()),
    );
    Ok((engine, sample))
}

/// Score `turn`'s answer to `q`.
fn score(q: &Question, turn: &ChatTurn, took: Duration) -> Scored {
    let answer = &turn.answer;
    // An answer that says how it was made is taken at its word (a quoted sentence may itself
    // say "do not contain"); another model's answer by its wording.
    let declined = match turn.method {
        Some(method) => method == AnswerMethod::Declined,
        None => says_it_cannot(answer),
    };
    let slug_of = |title: &str| {
        sample::DOCS
            .iter()
            .find(|d| d.collection == q.collection && d.title() == title)
            .map(|d| d.slug)
    };
    let segments = cited_segments(answer);
    let cited: HashSet<u32> = segments
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .collect();
    let cites_answering = turn
        .sources
        .iter()
        .filter(|s| cited.contains(&s.index))
        .filter_map(|s| slug_of(&s.title))
        .any(|slug| q.answers.iter().any(|a| a == slug));
    let (mut sentences, mut supported) = (0, 0);
    if !declined {
        for (text, cites) in &segments {
            for sentence in split_sentences(text) {
                if content_words(&sentence).next().is_none() {
                    continue;
                }
                sentences += 1;
                let backed = turn
                    .sources
                    .iter()
                    .filter(|s| cites.contains(&s.index))
                    .any(|s| supports(&s.text, &sentence));
                supported += usize::from(backed);
            }
        }
    }
    let normal = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let said = normal(answer);
    let facts_stated = q.facts.iter().filter(|f| said.contains(&normal(f))).count();
    Scored {
        answerable: !q.answers.is_empty(),
        cites_answering,
        declined,
        sentences,
        supported,
        facts: q.facts.len(),
        facts_stated,
        code_block: answer.contains("```"),
        took,
    }
}

/// Whether an answer says the sources do not answer (a configured model's wording too).
fn says_it_cannot(answer: &str) -> bool {
    let lower = answer.to_lowercase();
    [
        "do not answer",
        "does not answer",
        "don't answer",
        "not mentioned",
        "no information",
        "not in the sources",
        "not in the provided",
        "cannot find",
        "couldn't find",
        "could not find",
        "do not contain",
        "does not contain",
        "don't contain",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// The answer cut into pieces of text and the citations that close each: `A. [1] B [2].` is
/// `[("A.", [1]), ("B", [2]), (".", [])]`. Text after the last citation cites nothing.
fn cited_segments(answer: &str) -> Vec<(String, Vec<u32>)> {
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    let mut text = String::new();
    let mut cites = Vec::new();
    let mut rest = answer;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let number = after
            .find(']')
            .and_then(|close| after[..close].parse::<u32>().ok().map(|n| (n, close)));
        match number {
            Some((n, close)) => {
                let before = &rest[..open];
                if !before.trim().is_empty() && !cites.is_empty() {
                    out.push((std::mem::take(&mut text), std::mem::take(&mut cites)));
                }
                text.push_str(before);
                cites.push(n);
                rest = &after[close + 1..];
            }
            None => {
                text.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    if !cites.is_empty() {
        out.push((std::mem::take(&mut text), cites));
    }
    text.push_str(rest);
    if !text.trim().is_empty() {
        out.push((text, Vec::new()));
    }
    out
}

/// Whether `source` supports `sentence`: at least 90% of the sentence's content words are in
/// the source.
fn supports(source: &str, sentence: &str) -> bool {
    let held: HashSet<String> = content_words(source).collect();
    let words: Vec<String> = content_words(sentence).collect();
    let found = words.iter().filter(|w| held.contains(*w)).count();
    !words.is_empty() && found as f64 >= 0.9 * words.len() as f64
}

fn figures_of(part: &[&Scored]) -> Value {
    let answerable: Vec<&&Scored> = part.iter().filter(|s| s.answerable).collect();
    let unanswerable: Vec<&&Scored> = part.iter().filter(|s| !s.answerable).collect();
    let share = |n: usize, of: usize| (of > 0).then(|| n as f64 / of as f64);
    let sentences: usize = part.iter().map(|s| s.sentences).sum();
    let supported: usize = part.iter().map(|s| s.supported).sum();
    let facts: usize = answerable.iter().map(|s| s.facts).sum();
    let stated: usize = answerable.iter().map(|s| s.facts_stated).sum();
    let mut ms: Vec<f64> = part.iter().map(|s| s.took.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| {
        ms.get(((ms.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    json!({
        "answerable": answerable.len(),
        "unanswerable": unanswerable.len(),
        "citesAnsweringDoc": share(answerable.iter().filter(|s| s.cites_answering).count(), answerable.len()),
        "supportedSentences": share(supported, sentences),
        "sentences": sentences,
        "statesFacts": share(answerable.iter().filter(|s| s.facts_stated == s.facts).count(), answerable.len()),
        "factRecall": share(stated, facts),
        "unanswerableDeclined": share(unanswerable.iter().filter(|s| s.declined).count(), unanswerable.len()),
        "answerableDeclined": share(answerable.iter().filter(|s| s.declined).count(), answerable.len()),
        "codeBlocks": part.iter().filter(|s| s.code_block).count(),
        "medianMs": at(0.5),
        "p90Ms": at(0.9),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_names_a_real_document_and_every_fact_is_in_it() {
        let labelled: Labelled = serde_json::from_str(QUESTIONS).unwrap();
        assert!(labelled.questions.len() >= 40);
        let normal = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let mut ids = HashSet::new();
        for q in &labelled.questions {
            assert!(ids.insert(&q.id), "{} twice", q.id);
            assert!(matches!(q.split.as_str(), "tuning" | "heldout"), "{}", q.id);
            assert_eq!(q.answers.is_empty(), q.facts.is_empty(), "{}", q.id);
            let docs: Vec<_> = q
                .answers
                .iter()
                .map(|slug| {
                    sample::DOCS
                        .iter()
                        .find(|d| d.collection == q.collection && d.slug == slug)
                        .unwrap_or_else(|| panic!("{}: no document {}/{slug}", q.id, q.collection))
                })
                .collect();
            for fact in &q.facts {
                assert!(
                    docs.iter().any(|d| normal(d.text).contains(&normal(fact))),
                    "{}: \"{fact}\" is in none of its documents",
                    q.id
                );
            }
        }
        for split in ["tuning", "heldout"] {
            let part: Vec<_> = labelled
                .questions
                .iter()
                .filter(|q| q.split == split)
                .collect();
            assert!(
                part.iter().filter(|q| q.answers.is_empty()).count() >= 5,
                "{split}"
            );
            assert!(part.len() >= 20, "{split}");
        }
    }

    #[test]
    fn citations_close_the_text_before_them() {
        assert_eq!(
            cited_segments("A b. [1] C d [2][3]. Tail"),
            [
                ("A b. ".to_string(), vec![1]),
                (" C d ".to_string(), vec![2, 3]),
                (". Tail".to_string(), vec![]),
            ]
        );
        assert_eq!(
            cited_segments("No cites [x]"),
            [("No cites [x]".to_string(), vec![])]
        );
    }

    #[test]
    fn a_sentence_is_supported_when_the_source_holds_its_words() {
        let source = "The default grace period is 24 hours.";
        assert!(supports(source, "The grace period is 24 hours by default."));
        assert!(!supports(
            source,
            "The grace period is 48 hours, set in the console."
        ));
        assert!(says_it_cannot(
            "The sources found do not answer this question."
        ));
    }
}
