use super::*;
use crate::{EmbedResponse, TokenUsage};
use async_trait::async_trait;
use std::sync::Mutex;

/// Bag of content words hashed into buckets: texts sharing words have a positive cosine.
struct FakeEmbedder {
    dimensions: usize,
    fail: Mutex<Option<ProviderError>>,
}

impl FakeEmbedder {
    fn new(dimensions: usize) -> Self {
        FakeEmbedder {
            dimensions,
            fail: Mutex::new(None),
        }
    }

    fn fail_next(&self, error: ProviderError) {
        *self.fail.lock().unwrap() = Some(error);
    }
}

#[async_trait]
impl Embedder for FakeEmbedder {
    fn name(&self) -> &str {
        "fake"
    }

    async fn embed(&self, request: EmbedRequest) -> Result<EmbedResponse, ProviderError> {
        if let Some(error) = self.fail.lock().unwrap().take() {
            return Err(error);
        }
        let embeddings = request
            .texts
            .iter()
            .map(|text| {
                let mut v = vec![0f32; self.dimensions];
                for word in content_words(text) {
                    let h = word.bytes().fold(2166136261u32, |h, b| {
                        (h ^ u32::from(b)).wrapping_mul(16777619)
                    });
                    v[h as usize % self.dimensions] += 1.0;
                }
                v
            })
            .collect();
        Ok(EmbedResponse {
            embeddings,
            model: "fake".into(),
            usage: TokenUsage::default(),
        })
    }
}

const ROLLING: &str = "# Rolling an API Key\n\nRolling a key replaces a secret with a new one \
without downtime. Do it on a regular schedule.\n\nIn the dashboard choose the key and click Roll \
key, or call POST /v2/api_keys/{id}/roll. The default grace period is 24 hours, and you may \
shorten it to zero when the old key is compromised.";
const PAGES: &str = "# Pagination\n\nLists return at most 100 items per page. Pass the cursor \
from next_cursor to fetch the following page.";

fn sources() -> Vec<SourceText<'static>> {
    vec![
        SourceText {
            index: 1,
            title: "Pagination",
            text: PAGES,
        },
        SourceText {
            index: 2,
            title: "Rolling an API Key",
            text: ROLLING,
        },
    ]
}

#[tokio::test]
async fn the_answer_quotes_the_sentences_that_answer_and_cites_each() {
    let embedder = FakeEmbedder::new(256);
    let got = answer(
        &embedder,
        "How long is the grace period after I roll a key?",
        &sources(),
        Tuning::DEFAULT,
    )
    .await
    .unwrap();
    assert_eq!(got.method, Method::Extractive);
    // The sentence that answers, and its neighbour in the same source, in the source's order.
    assert!(
        got.text.contains(
            "The default grace period is 24 hours, and you may shorten it to zero when the old key is compromised. [2]"
        ),
        "{}",
        got.text
    );
    assert!(got.quotes.iter().all(|q| q.index == 2), "{:?}", got.quotes);
    for quote in &got.quotes {
        let source = sources()
            .into_iter()
            .find(|s| s.index == quote.index)
            .unwrap();
        assert!(
            source.text.contains(&quote.passage),
            "{quote:?} is not in its source"
        );
        assert!(
            got.text
                .contains(&format!("{} [{}]", quote.passage, quote.index))
        );
    }
}

#[tokio::test]
async fn a_question_the_sources_do_not_touch_is_declined() {
    let embedder = FakeEmbedder::new(256);
    let got = answer(
        &embedder,
        "Which regions host the EU data centre?",
        &sources(),
        Tuning::DEFAULT,
    )
    .await
    .unwrap();
    assert_eq!(
        (got.method, got.text.as_str()),
        (Method::Declined, DECLINED)
    );
    assert!(got.quotes.is_empty());
    let none = answer(&embedder, "Anything?", &[], Tuning::DEFAULT)
        .await
        .unwrap();
    assert_eq!(none.method, Method::Declined);
}

#[tokio::test]
async fn the_embedder_failing_is_the_answers_error() {
    let embedder = FakeEmbedder::new(16);
    embedder.fail_next(ProviderError::Network {
        provider: "fake".into(),
        message: "down".into(),
    });
    let err = answer(&embedder, "grace period", &sources(), Tuning::DEFAULT)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("down"), "{err}");
}

#[test]
fn sentences_leave_out_headings_code_and_fragments() {
    let text = "# Title\n\nFirst sentence is here. Use e.g. the key. Version 2.1 is out. \
                Then 3 more things happen!\n\n```\ncode line that is long enough\n```\n\n- a list item \
                with words\n\nOk.";
    assert_eq!(
        sentences(text),
        [
            "First sentence is here.",
            "Use e.g. the key.",
            "Version 2.1 is out.",
            "Then 3 more things happen!",
            "a list item with words",
        ]
    );
}

#[test]
fn content_words_drop_stopwords_and_plurals() {
    let words: Vec<String> =
        content_words("How do the API keys expire in 24 hours after adding?").collect();
    assert_eq!(words, ["api", "key", "expir", "24", "hour", "add"]);
}

#[tokio::test]
async fn an_instruction_quotes_what_fits_it_best_instead_of_declining() {
    let embedder = FakeEmbedder::new(256);
    let got = answer(
        &embedder,
        "Write a short report on these figures",
        &sources(),
        Tuning::DEFAULT,
    )
    .await
    .unwrap();
    assert_eq!(got.method, Method::Extractive, "{got:?}");
    assert_eq!(got.quotes.len(), Tuning::DEFAULT.max_sentences);
    let asked = answer(
        &embedder,
        "Write what? Which regions host the EU data centre?",
        &sources(),
        Tuning::DEFAULT,
    )
    .await
    .unwrap();
    assert_eq!(asked.method, Method::Declined);
}
