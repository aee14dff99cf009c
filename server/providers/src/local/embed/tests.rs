//! Tests of `LocalEmbedder`. Those that run the model need the weights (`bash
//! scripts/fetch-model.sh`); without them they print "skipped: …" and pass.

use super::*;
use crate::{EmbedInputType, cosine_similarity};
use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

/// One embedder over the installed model, shared so the model loads once per test binary; `None`
/// (after saying why) when the model is not installed.
fn installed() -> Option<&'static LocalEmbedder> {
    static SHARED: OnceLock<Result<LocalEmbedder, ProviderError>> = OnceLock::new();
    let shared = SHARED
        .get_or_init(|| find_model_dir().map(|dir| LocalEmbedder::new(ModelLocation::Dir(dir))));
    match shared {
        Ok(embedder) => Some(embedder),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn request(texts: &[&str]) -> EmbedRequest {
    EmbedRequest {
        texts: texts.iter().map(|t| t.to_string()).collect(),
        model: "voyage-4-lite".into(),
        input_type: Some(EmbedInputType::Document),
        dimensions: None,
    }
}

async fn embed(embedder: &LocalEmbedder, texts: &[&str]) -> Vec<Vec<f32>> {
    embedder.embed(request(texts)).await.unwrap().embeddings
}

#[tokio::test]
async fn similar_sentences_score_about_0_755_and_unrelated_ones_near_zero() {
    let Some(e) = installed() else { return };
    let v = embed(
        e,
        &[
            "A man is eating food.",
            "A man is eating a piece of bread.",
            "The stock market crashed today.",
        ],
    )
    .await;
    let close = cosine_similarity(&v[0], &v[1]);
    let far = cosine_similarity(&v[0], &v[2]);
    assert!((close - 0.755).abs() < 0.02, "similar pair: {close}");
    assert!(far < 0.2, "unrelated pair: {far}");
}

/// The start of the vector of "A man is eating food." as candle-transformers' `BertModel`
/// computes it (mean-pooled, normalised): our encoder must agree with that implementation.
const REFERENCE_START: [f32; 8] = [
    0.033_241_56,
    0.004_406_101,
    -0.006_276_926_5,
    0.048_378_695,
    -0.138_702_26,
    -0.033_617_336,
    0.101_128_29,
    -0.054_384_924,
];

#[tokio::test]
async fn the_vector_of_a_known_sentence_matches_a_reference_implementation() {
    let Some(e) = installed() else { return };
    let v = embed(e, &["A man is eating food."]).await.remove(0);
    for (i, (got, want)) in v.iter().zip(REFERENCE_START).enumerate() {
        assert!((got - want).abs() < 1e-5, "component {i}: {got} vs {want}");
    }
}

#[tokio::test]
async fn vectors_are_unit_length_384_wide_and_name_the_model() {
    let Some(e) = installed() else { return };
    let response = e.embed(request(&["hello world", ""])).await.unwrap();
    assert_eq!(e.name(), "local");
    assert_eq!(response.model, "all-minilm-l6-v2");
    assert_eq!(response.embeddings.len(), 2);
    for v in &response.embeddings {
        assert_eq!(v.len(), 384);
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    }
    // [CLS] hello world [SEP] and [CLS] [SEP].
    assert_eq!(response.usage, TokenUsage::input(6));
    assert!(e.is_loaded());
}

#[tokio::test]
async fn queries_and_documents_embed_alike() {
    let Some(e) = installed() else { return };
    let mut query = request(&["rate limiting"]);
    query.input_type = Some(EmbedInputType::Query);
    query.dimensions = Some(384);
    let as_query = e.embed(query).await.unwrap().embeddings;
    assert_eq!(as_query, embed(e, &["rate limiting"]).await);
}

#[tokio::test]
async fn seventy_texts_come_back_in_order_as_when_embedded_alone() {
    let Some(e) = installed() else { return };
    let texts: Vec<String> = (0..70)
        .map(|i| match i % 3 {
            0 => format!("Sentence number {i} is short."),
            1 => format!(
                "Item {i}: {}",
                "a rather longer sentence ".repeat(i % 7 + 1)
            ),
            _ => format!("{i}"),
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let together = embed(e, &refs).await;
    assert_eq!(together.len(), 70);
    for (i, text) in refs.iter().enumerate() {
        let alone = embed(e, &[text]).await.remove(0);
        let sim = cosine_similarity(&together[i], &alone);
        assert!(sim > 0.9999, "text {i} ({text:?}): {sim}");
    }
}

#[tokio::test]
async fn texts_longer_than_the_model_limit_are_truncated() {
    let Some(e) = installed() else { return };
    let long = "word ".repeat(2000);
    let response = e.embed(request(&[&long])).await.unwrap();
    assert_eq!(response.embeddings[0].len(), 384);
    assert_eq!(response.usage, TokenUsage::input(256));
}

#[tokio::test]
async fn weights_named_with_a_bert_prefix_load_too() {
    let Some(e) = installed() else { return };
    let source = e.model_dir().unwrap();
    let dir = std::env::temp_dir().join(format!("vai-embed-prefixed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let result = async {
        write_prefixed_copy(&source, &dir);
        let prefixed = LocalEmbedder::new(ModelLocation::Dir(dir.clone()));
        assert!(!prefixed.is_loaded(), "loads lazily");
        let text = ["A man is eating food."];
        (embed(&prefixed, &text).await, embed(e, &text).await)
    }
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    let (prefixed, plain) = result;
    assert!(cosine_similarity(&prefixed[0], &plain[0]) > 0.9999);
}

/// Copy the model at `from` into `to`, every tensor renamed `bert.<name>`.
fn write_prefixed_copy(from: &Path, to: &Path) {
    for f in ["tokenizer.json", "config.json"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    let tensors =
        candle_core::safetensors::load(from.join("model.safetensors"), &candle_core::Device::Cpu)
            .unwrap();
    assert!(tensors.keys().all(|k| !k.starts_with("bert.")));
    let renamed: HashMap<String, candle_core::Tensor> = tensors
        .into_iter()
        .map(|(k, t)| (format!("bert.{k}"), t))
        .collect();
    candle_core::safetensors::save(&renamed, to.join("model.safetensors")).unwrap();
}

#[tokio::test]
async fn a_missing_model_dir_says_how_to_install_the_model() {
    let dir = std::env::temp_dir().join("vai-no-such-model-dir");
    let e = LocalEmbedder::new(ModelLocation::Dir(dir.clone()));
    for _ in 0..2 {
        let err = e.embed(request(&["hello"])).await.unwrap_err();
        let ProviderError::NotConfigured(msg) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(
            msg,
            &format!(
                "the local embedding model is not installed in {} (the configured model \
                 directory): run `npm start` (or `bash scripts/fetch-model.sh`), or set \
                 VAI_MODEL_DIR to a directory holding model.safetensors, tokenizer.json and \
                 config.json",
                dir.display()
            )
        );
    }
    assert!(!e.is_loaded());
}

#[tokio::test]
async fn dimensions_other_than_384_are_refused_before_loading() {
    let e = LocalEmbedder::new(ModelLocation::Dir("/nonexistent".into()));
    let mut req = request(&["hello"]);
    req.dimensions = Some(512);
    let err = e.embed(req).await.unwrap_err();
    assert_eq!(
        err,
        ProviderError::invalid_request(
            "local",
            "all-minilm-l6-v2 produces 384 dimensions, not 512"
        )
    );
    assert_eq!(
        format!("{e:?}"),
        "LocalEmbedder { location: Dir(\"/nonexistent\"), loaded: false }"
    );
}
