//! Grounded answers for a model too small to answer from context: the sentences of the sources
//! that answer the question, quoted and cited, or a plain "the sources do not say" when none
//! does. Nothing is invented, so every sentence of the answer is supported by the source it
//! cites (docs/chat.md, "Offline answers").
//!
//! Each source's sentences are scored against the question: the cosine similarity of their
//! embeddings (the local sentence encoder) plus how much of the question's rarer words the
//! sentence holds, with a small preference for the sources ranked first. The best sentence
//! answers when it scores above [`Tuning::min_best`]; the next best join it when they score
//! close to it, up to [`Tuning::max_sentences`]. The figures were chosen on the tuning half of
//! `server/providers/eval/answer-questions.json` and are reported on both halves by
//! `vai bench answers` (docs/benchmarks.md).

mod llm;

pub use llm::GroundedLlm;

use crate::{EmbedRequest, Embedder, ProviderError, cosine_similarity};
use std::collections::{HashMap, HashSet};

/// A source the answer may quote: its citation number, title and text.
#[derive(Debug, Clone, Copy)]
pub struct SourceText<'a> {
    pub index: u32,
    pub title: &'a str,
    pub text: &'a str,
}

/// How a grounded answer was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Sentences of the sources, each cited.
    Extractive,
    /// No sentence answers the question: the answer says so.
    Declined,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Extractive => "extractive",
            Method::Declined => "declined",
        }
    }
}

/// One quoted sentence and the source it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Quote {
    /// The citation number of its source.
    pub index: u32,
    pub passage: String,
}

/// An answer built from the sources.
#[derive(Debug, Clone, PartialEq)]
pub struct Grounded {
    /// The answer: quoted sentences each followed by `[n]`, or the decline.
    pub text: String,
    pub method: Method,
    /// The quoted sentences, in the answer's order.
    pub quotes: Vec<Quote>,
    /// The best sentence's score (what [`Tuning::min_best`] is compared with); 0 when there
    /// was nothing to score.
    pub score: f64,
}

/// What a declined answer says.
pub const DECLINED: &str = "The sources found do not answer this question.";

/// The knobs of the sentence choice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// Weight of the lexical overlap beside the cosine similarity.
    pub lexical_weight: f64,
    /// Added to the score of the first source's sentences, less for later ones.
    pub rank_bonus: f64,
    /// Weight of the similarity between the question and the sentence's whole source.
    pub document_weight: f64,
    /// Embed each sentence after its source's title (the title says what "it" is about).
    pub with_title: bool,
    /// The best sentence's score below which the sources are taken not to answer.
    pub min_best: f64,
    /// How far below the best another sentence of its source may score and still join it.
    pub join_within: f64,
    /// How far below the best the best sentence of another source may score and still join
    /// the answer (a second source that may be the one that answers).
    pub join_other: f64,
    /// The same for the best sentence of the first source (the search's best document).
    pub join_first: f64,
    /// Most sentences quoted.
    pub max_sentences: usize,
    /// Most characters quoted (a sentence is never cut; the next that does not fit is left).
    pub max_chars: usize,
}

impl Tuning {
    pub const DEFAULT: Tuning = Tuning {
        lexical_weight: 0.35,
        rank_bonus: 0.04,
        document_weight: 0.0,
        with_title: true,
        min_best: 0.55,
        join_within: 0.12,
        join_other: 0.15,
        join_first: 0.25,
        max_sentences: 3,
        max_chars: 600,
    };
}

/// Sources read, and sentences per source scored, at most.
const MAX_SOURCES: usize = 5;
const MAX_SENTENCES_PER_SOURCE: usize = 48;
/// Longer "sentences" (a table, a JSON dump) are not quoted.
const MAX_SENTENCE_CHARS: usize = 480;

/// Answer `question` from `sources` (best first) with `embedder`'s sentence vectors.
pub async fn answer(
    embedder: &dyn Embedder,
    question: &str,
    sources: &[SourceText<'_>],
    tuning: Tuning,
) -> Result<Grounded, ProviderError> {
    let candidates: Vec<Candidate> = sources
        .iter()
        .take(MAX_SOURCES)
        .enumerate()
        .flat_map(|(rank, source)| {
            sentences(source.text)
                .into_iter()
                .take(MAX_SENTENCES_PER_SOURCE)
                .enumerate()
                .map(move |(position, text)| Candidate {
                    index: source.index,
                    rank,
                    position,
                    text,
                })
        })
        .collect();
    if candidates.is_empty() || question.trim().is_empty() {
        return Ok(declined(0.0));
    }

    let used = &sources[..sources.len().min(MAX_SOURCES)];
    let mut texts = Vec::with_capacity(candidates.len() + used.len() + 1);
    texts.push(question.to_string());
    texts.extend(candidates.iter().map(|c| match tuning.with_title {
        true => format!("{}: {}", used[c.rank].title, c.text),
        false => c.text.clone(),
    }));
    if tuning.document_weight > 0.0 {
        texts.extend(used.iter().map(|s| s.text.to_string()));
    }
    let vectors = embedder
        .embed(EmbedRequest {
            texts,
            model: String::new(),
            input_type: None,
            dimensions: None,
        })
        .await?
        .embeddings;
    let Some((query, rest)) = vectors.split_first() else {
        return Ok(declined(0.0));
    };
    let (sentence_vectors, document_vectors) = rest.split_at(candidates.len().min(rest.len()));
    let document: Vec<f64> = document_vectors
        .iter()
        .map(|v| cosine_similarity(query, v))
        .collect();
    let lexical = Lexical::new(question, &candidates);
    let scores: Vec<f64> = candidates
        .iter()
        .zip(sentence_vectors)
        .map(|(c, v)| {
            cosine_similarity(query, v)
                + tuning.lexical_weight * lexical.overlap(&c.text)
                + tuning.document_weight * document.get(c.rank).copied().unwrap_or(0.0)
                + tuning.rank_bonus / (c.rank as f64 + 1.0)
        })
        .collect();
    Ok(choose(question, &candidates, &scores, tuning))
}

/// The answer the scores make: the best sentence, when it scores well enough and holds what the
/// question asks for, with the next best of the same source that score close to it.
fn choose(question: &str, candidates: &[Candidate], scores: &[f64], tuning: Tuning) -> Grounded {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let Some(&best) = order.first() else {
        return declined(0.0);
    };
    let score = scores[best];
    // An instruction ("Write a short report on …") is not declined: what answers it best is
    // quoted, however weakly it scores.
    let tuning = match is_instruction(question) {
        true => Tuning {
            min_best: f64::NEG_INFINITY,
            join_within: f64::INFINITY,
            join_other: f64::INFINITY,
            join_first: f64::INFINITY,
            ..tuning
        },
        false => tuning,
    };
    let expects = Expects::of(question);
    if score < tuning.min_best || expects.is_some_and(|e| !e.met_by(&candidates[best].text)) {
        return declined(score);
    }
    let source = candidates[best].index;
    // The best sentence of another source, when it scores close to the best: the first
    // source's (the one the search ranked first) within `join_first`, else any within
    // `join_other`.
    let best_of = |rank: Option<usize>| {
        order.iter().copied().find(|&i| {
            candidates[i].index != source && rank.is_none_or(|r| candidates[i].rank == r)
        })
    };
    let other = best_of(Some(0))
        .filter(|&i| scores[i] >= score - tuning.join_first)
        .or_else(|| best_of(None).filter(|&i| scores[i] >= score - tuning.join_other));
    let room = tuning
        .max_sentences
        .saturating_sub(usize::from(other.is_some()));
    let mut chosen = vec![best];
    let mut chars = candidates[best].text.len();
    for &i in &order[1..] {
        if chosen.len() >= room || scores[i] < score - tuning.join_within {
            break;
        }
        let text = &candidates[i].text;
        if candidates[i].index != source
            || chars + text.len() > tuning.max_chars
            || chosen.iter().any(|&c| candidates[c].text == *text)
        {
            continue;
        }
        chars += text.len();
        chosen.push(i);
    }
    chosen.extend(other.filter(|&i| {
        !chosen
            .iter()
            .any(|&c| candidates[c].text == candidates[i].text)
    }));
    // Read as the sources tell it: the best sentence's source first.
    chosen.sort_by_key(|&i| (candidates[i].index != source, candidates[i].position));
    let quotes: Vec<Quote> = chosen
        .iter()
        .map(|&i| Quote {
            index: candidates[i].index,
            passage: candidates[i].text.clone(),
        })
        .collect();
    let text = quotes
        .iter()
        .map(|q| format!("{} [{}]", q.passage, q.index))
        .collect::<Vec<_>>()
        .join(" ");
    Grounded {
        text,
        method: Method::Extractive,
        quotes,
        score,
    }
}

/// Whether `prompt` asks for a piece of writing rather than asks a question: it starts with
/// an imperative such as "Write", "Summarize" or "List" and does not end with a question mark.
fn is_instruction(prompt: &str) -> bool {
    let prompt = prompt.trim();
    let first = prompt
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    !prompt.ends_with('?')
        && [
            "write",
            "summarize",
            "summarise",
            "list",
            "describe",
            "report",
            "draft",
            "outline",
            "compare",
            "give",
            "create",
            "produce",
            "review",
        ]
        .contains(&first.as_str())
}

/// What kind of answer a question asks for, when its words say: an amount (how much, what
/// percentage, fee, price), a count (how many, the maximum number), a frequency (how often) or
/// a duration (how long). A sentence answering it must state one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expects {
    Amount,
    Count,
    Frequency,
    Duration,
}

impl Expects {
    fn of(question: &str) -> Option<Expects> {
        let q = question.to_lowercase();
        let has = |phrases: &[&str]| phrases.iter().any(|p| q.contains(p));
        if has(&[
            "how much",
            "what percentage",
            "what fee",
            "what price",
            "how expensive",
        ]) {
            Some(Expects::Amount)
        } else if has(&[
            "how many",
            "max number",
            "maximum number",
            "minimum number",
            "the max ",
        ]) {
            Some(Expects::Count)
        } else if has(&["how often", "how frequently"]) {
            Some(Expects::Frequency)
        } else if has(&["how long"]) {
            Some(Expects::Duration)
        } else {
            None
        }
    }

    /// Whether `text` states what is expected.
    fn met_by(self, text: &str) -> bool {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let number = words
            .iter()
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit()));
        let any = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
        match self {
            Expects::Amount => number || text.contains(['$', '€', '£', '%']) || any(&["percent"]),
            Expects::Count => number || any(NUMBER_WORDS),
            Expects::Frequency => number || any(NUMBER_WORDS) || any(FREQUENCY_WORDS),
            Expects::Duration => number || any(NUMBER_WORDS) || any(DURATION_WORDS),
        }
    }
}

const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "ninety", "hundred",
    "thousand", "million", "billion", "zero", "single", "dozen",
];
const FREQUENCY_WORDS: &[&str] = &[
    "once",
    "twice",
    "daily",
    "hourly",
    "weekly",
    "monthly",
    "yearly",
    "annually",
    "every",
    "nightly",
    "continuously",
];
const DURATION_WORDS: &[&str] = &[
    "second",
    "seconds",
    "minute",
    "minutes",
    "hour",
    "hours",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "forever",
    "indefinitely",
    "immediately",
];

fn declined(score: f64) -> Grounded {
    Grounded {
        text: DECLINED.to_string(),
        method: Method::Declined,
        quotes: Vec::new(),
        score,
    }
}

/// A sentence of a source.
struct Candidate {
    index: u32,
    /// Where its source ranks among those given (0 = first).
    rank: usize,
    /// Its place in its source.
    position: usize,
    text: String,
}

/// The sentences of `text` worth quoting: Markdown headings, code fences, fragments of fewer
/// than four words and runs longer than `MAX_SENTENCE_CHARS` are left out; list markers are
/// dropped.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for block in text.split("\n\n") {
        let mut prose = String::new();
        for line in block.lines() {
            let line = line.trim();
            if line.starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code || line.starts_with('#') || line.is_empty() {
                continue;
            }
            let line = line.trim_start_matches(['-', '*', '>', '+']).trim_start();
            if !prose.is_empty() {
                prose.push(' ');
            }
            prose.push_str(line);
        }
        out.extend(
            split_sentences(&prose)
                .into_iter()
                .filter(|s| s.split_whitespace().count() >= 4 && s.len() <= MAX_SENTENCE_CHARS),
        );
    }
    out
}

/// Split prose after `.`, `!` or `?` followed by a space and an upper-case letter, a digit or
/// a quote — not inside "e.g. the" nor after a single initial.
pub fn split_sentences(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = prose.char_indices().collect();
    for (k, &(at, c)) in chars.iter().enumerate() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let Some(&(_, space)) = chars.get(k + 1) else {
            continue;
        };
        let Some(&(_, next)) = chars.get(k + 2) else {
            continue;
        };
        if !space.is_whitespace() || !(next.is_uppercase() || next.is_ascii_digit() || next == '"')
        {
            continue;
        }
        let word_start = prose[..at].rfind(char::is_whitespace).map_or(0, |p| p + 1);
        let word = &prose[word_start..at];
        if word.len() <= 1
            || matches!(
                word.to_ascii_lowercase().as_str(),
                "e.g" | "i.e" | "etc" | "vs"
            )
        {
            continue;
        }
        let end = at + c.len_utf8();
        out.push(prose[start..end].trim().to_string());
        start = end;
    }
    let tail = prose[start..].trim();
    if !tail.is_empty() {
        out.push(tail.to_string());
    }
    out
}

/// The question's content words, weighted by how rare they are among the candidates.
struct Lexical {
    weights: HashMap<String, f64>,
    total: f64,
}

impl Lexical {
    fn new(question: &str, candidates: &[Candidate]) -> Self {
        let words: HashSet<String> = content_words(question).collect();
        let sets: Vec<HashSet<String>> = candidates
            .iter()
            .map(|c| content_words(&c.text).collect())
            .collect();
        let n = sets.len() as f64;
        let weights: HashMap<String, f64> = words
            .into_iter()
            .map(|w| {
                let df = sets.iter().filter(|s| s.contains(&w)).count() as f64;
                let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                (w, idf)
            })
            .collect();
        let total = weights.values().sum();
        Lexical { weights, total }
    }

    /// The share of the question's word weight that `sentence` holds, in [0, 1].
    fn overlap(&self, sentence: &str) -> f64 {
        if self.total <= 0.0 {
            return 0.0;
        }
        let words: HashSet<String> = content_words(sentence).collect();
        let held: f64 = self
            .weights
            .iter()
            .filter(|(w, _)| words.contains(*w))
            .map(|(_, idf)| idf)
            .sum();
        held / self.total
    }
}

/// Lower-case words of `text` that carry meaning, cut to a rough stem (`keys` and `key`,
/// `rotated` and `rotate`, `adding` and `add` meet).
pub fn content_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| {
            (w.len() > 2 || w.chars().all(|c| c.is_ascii_digit()))
                && !STOPWORDS.contains(&w.as_str())
        })
        .map(|w| stem(&w))
}

/// `w` without a plural or verb ending, when at least three letters remain.
fn stem(w: &str) -> String {
    for suffix in ["ing", "ed", "es", "s", "e"] {
        if let Some(stem) = w.strip_suffix(suffix)
            && stem.len() >= 3
            && !stem.ends_with('s')
            && stem.chars().all(char::is_alphabetic)
        {
            return stem.to_string();
        }
    }
    w.to_string()
}

/// Words that say nothing about what a question asks.
const STOPWORDS: &[&str] = &[
    "the",
    "and",
    "for",
    "are",
    "but",
    "not",
    "you",
    "your",
    "all",
    "any",
    "can",
    "had",
    "her",
    "was",
    "one",
    "our",
    "out",
    "has",
    "have",
    "his",
    "how",
    "its",
    "may",
    "who",
    "did",
    "get",
    "got",
    "why",
    "what",
    "when",
    "where",
    "which",
    "with",
    "this",
    "that",
    "these",
    "those",
    "from",
    "into",
    "then",
    "than",
    "them",
    "they",
    "their",
    "there",
    "will",
    "would",
    "should",
    "could",
    "does",
    "doing",
    "done",
    "been",
    "being",
    "were",
    "about",
    "after",
    "before",
    "over",
    "under",
    "again",
    "just",
    "only",
    "also",
    "very",
    "some",
    "such",
    "more",
    "most",
    "other",
    "each",
    "both",
    "few",
    "own",
    "same",
    "too",
    "here",
    "while",
    "because",
    "until",
    "i'm",
    "mine",
    "need",
    "want",
    "way",
    "use",
    "using",
    "happen",
    "happens",
    "know",
    "tell",
    "something",
    "anything",
    "thing",
    "things",
    "make",
    "like",
    "still",
    "keep",
    "say",
    "says",
];

#[cfg(test)]
mod tests;
