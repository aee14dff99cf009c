//! The Voyage AI client against a fake Voyage server on loopback that speaks the real wire format.

use super::*;
use crate::EmbedInputType;
use crate::testing::fake_http::{FakeServer, Recorded, Reply};
use serde_json::{Value, json};
use std::time::Instant;

const KEY: &str = "pa-test-key-0123456789";

fn config(server: &FakeServer) -> VoyageConfig {
    VoyageConfig {
        base_url: Some(format!("{}/v1/", server.base)),
        timeout: Duration::from_secs(10),
        max_retries: 2,
        initial_backoff: Duration::from_millis(1),
        ..VoyageConfig::new(KEY)
    }
}

fn client(server: &FakeServer) -> VoyageClient {
    VoyageClient::new(config(server)).expect("client")
}

fn embed_request(texts: Vec<String>, model: &str) -> EmbedRequest {
    EmbedRequest {
        texts,
        model: model.into(),
        input_type: None,
        dimensions: None,
    }
}

/// Texts "0 …", "1 …": the number tags the text so order can be checked.
fn numbered(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{i} text")).collect()
}

fn tag(text: &Value) -> f32 {
    let text = text.as_str().expect("input is a string");
    text.split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("numbered text")
}

/// Answers `/embeddings` as Voyage does: one vector per input (here `[tag]`) with its `index`,
/// and usage of one token per input.
fn embeddings(request: &Recorded) -> Reply {
    let body = request.json();
    let inputs = body["input"].as_array().expect("input array");
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "embedding": [tag(t)], "index": i}))
        .collect();
    Reply::json(
        200,
        json!({"object": "list", "data": data, "model": body["model"],
               "usage": {"total_tokens": inputs.len()}}),
    )
}

/// Answers `/rerank`: document "n …" scores (n·37 mod 101)/100; best first; `top_k` honoured.
fn rerank_scores(request: &Recorded) -> Reply {
    let body = request.json();
    let docs = body["documents"].as_array().expect("documents");
    let mut data: Vec<(usize, f64)> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| (i, f64::from((tag(d) as u32 * 37) % 101) / 100.0))
        .collect();
    data.sort_by(|a, b| b.1.total_cmp(&a.1));
    if let Some(k) = body["top_k"].as_u64() {
        data.truncate(k as usize);
    }
    let data: Vec<Value> = data
        .iter()
        .map(|(i, s)| json!({"index": i, "relevance_score": s}))
        .collect();
    Reply::json(
        200,
        json!({"object": "list", "data": data, "model": body["model"],
               "usage": {"total_tokens": 10 * docs.len()}}),
    )
}

fn embedding_ok() -> Reply {
    Reply::json(
        200,
        json!({"data": [{"embedding": [0.5], "index": 0}], "model": "voyage-4-large",
                            "usage": {"total_tokens": 3}}),
    )
}

#[test]
fn the_base_follows_the_key_unless_configured() {
    assert_eq!(base_for_key("al-abc"), "https://ai.mongodb.com/v1");
    assert_eq!(base_for_key("pa-abc"), "https://api.voyageai.com/v1");
    assert_eq!(base_for_key("something-else"), "https://ai.mongodb.com/v1");
    let atlas = VoyageClient::new(VoyageConfig::new("al-k")).unwrap();
    assert_eq!(atlas.base_url(), ATLAS_BASE);
    let voyage = VoyageClient::new(VoyageConfig::new(" pa-k\n")).unwrap();
    assert_eq!(voyage.base_url(), VOYAGE_BASE);
    let proxy = VoyageClient::new(VoyageConfig {
        base_url: Some("http://127.0.0.1:9/v1/".into()),
        ..VoyageConfig::new("pa-k")
    })
    .unwrap();
    assert_eq!(proxy.base_url(), "http://127.0.0.1:9/v1");
}

#[test]
fn unusable_configuration_is_refused_without_echoing_the_key() {
    let refused = |config: VoyageConfig| match VoyageClient::new(config) {
        Err(ProviderError::NotConfigured(msg)) => msg,
        other => panic!("expected NotConfigured, got {other:?}"),
    };
    assert!(refused(VoyageConfig::new("  ")).contains("VOYAGE_API_KEY"));
    let msg = refused(VoyageConfig::new("pa-se\ncret"));
    assert!(msg.contains("VOYAGE_API_KEY") && !msg.contains("se\ncret"));
    let bad_base = VoyageConfig {
        base_url: Some("ftp://x".into()),
        ..VoyageConfig::new("pa-k")
    };
    assert!(refused(bad_base).contains("VOYAGE_API_BASE"));

    let config = VoyageConfig::new(KEY);
    assert!(!format!("{config:?}").contains(KEY));
    assert!(!format!("{:?}", VoyageClient::new(config).unwrap()).contains(KEY));
    assert_eq!(VoyageConfig::default().timeout, Duration::from_secs(30));
    assert_eq!(VoyageConfig::default().max_retries, 4);
}

#[tokio::test]
async fn embed_sends_the_voyage_wire_format_with_bearer_auth() {
    let server = FakeServer::start(|r, _| embeddings(r)).await;
    let voyage = client(&server);
    let out = voyage
        .embed(EmbedRequest {
            input_type: Some(EmbedInputType::Document),
            dimensions: Some(512),
            ..embed_request(numbered(2), "voyage-4-large")
        })
        .await
        .unwrap();
    assert_eq!(out.embeddings, [[0.0], [1.0]]);
    assert_eq!(out.model, "voyage-4-large");
    assert_eq!(out.usage, TokenUsage::input(2));
    assert_eq!(Embedder::name(&voyage), "voyage");
    assert_eq!(Reranker::name(&voyage), "voyage");

    voyage
        .embed(embed_request(numbered(1), "voyage-4"))
        .await
        .unwrap();
    let requests = server.requests();
    let first = &requests[0];
    assert_eq!(
        (first.method.as_str(), first.path.as_str()),
        ("POST", "/v1/embeddings")
    );
    assert_eq!(
        first.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(first.header("content-type"), Some("application/json"));
    assert_eq!(
        first.json(),
        json!({"input": ["0 text", "1 text"], "model": "voyage-4-large", "input_type": "document",
               "output_dimension": 512, "truncation": true})
    );
    assert_eq!(
        requests[1].json(),
        json!({"input": ["0 text"], "model": "voyage-4", "truncation": true}),
        "no input_type or output_dimension when unset"
    );
}

#[tokio::test]
async fn vectors_are_ordered_by_their_index_not_the_list_order() {
    let server = FakeServer::start(|_, _| {
        Reply::json(
            200,
            json!({"data": [{"embedding": [2.0], "index": 1}, {"embedding": [1.0], "index": 0}],
                                "model": "voyage-4-large", "usage": {"total_tokens": 7}}),
        )
    })
    .await;
    let out = client(&server)
        .embed(embed_request(numbered(2), "voyage-4-large"))
        .await
        .unwrap();
    assert_eq!(out.embeddings, [[1.0], [2.0]]);
}

#[tokio::test]
async fn nothing_to_embed_or_rerank_sends_nothing() {
    let server = FakeServer::start(|r, _| embeddings(r)).await;
    let voyage = client(&server);
    let out = voyage
        .embed(embed_request(Vec::new(), "voyage-4-large"))
        .await
        .unwrap();
    assert!(out.embeddings.is_empty());
    assert_eq!(
        (out.model.as_str(), out.usage),
        ("voyage-4-large", TokenUsage::default())
    );
    let request = RerankRequest {
        query: "q".into(),
        documents: Vec::new(),
        model: "rerank-2.5".into(),
        top_k: Some(3),
    };
    assert!(voyage.rerank(request).await.unwrap().results.is_empty());
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn large_inputs_are_split_by_count_in_order_and_usage_is_summed() {
    let server = FakeServer::start(|r, _| embeddings(r)).await;
    let out = client(&server)
        .embed(embed_request(numbered(2_500), "voyage-4-lite"))
        .await
        .unwrap();
    let sizes: Vec<usize> = server
        .requests()
        .iter()
        .map(|r| r.json()["input"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 2_500);
    let mut sorted = sizes;
    sorted.sort_unstable();
    assert_eq!(sorted, [500, 1_000, 1_000]);
    let tags: Vec<f32> = out.embeddings.iter().map(|v| v[0]).collect();
    assert_eq!(tags, (0..2_500).map(|i| i as f32).collect::<Vec<_>>());
    assert_eq!(out.usage, TokenUsage::input(2_500));
}

#[tokio::test]
async fn large_inputs_are_split_by_the_models_token_budget() {
    // 3,000 bytes ≈ 1,000 estimated tokens each: 120 fit voyage-4-large's 120,000 per request.
    let server = FakeServer::start(|r, _| embeddings(r)).await;
    let texts: Vec<String> = (0..300)
        .map(|i| format!("{i:03} {}", "x".repeat(2_996)))
        .collect();
    assert!(texts.iter().all(|t| estimate_tokens(t) == 1_000));
    let out = client(&server)
        .embed(embed_request(texts, "voyage-4-large"))
        .await
        .unwrap();
    let mut sizes: Vec<usize> = server
        .requests()
        .iter()
        .map(|r| r.json()["input"].as_array().unwrap().len())
        .collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [60, 120, 120]);
    assert_eq!(out.embeddings.len(), 300);
    assert!(
        out.embeddings
            .iter()
            .enumerate()
            .all(|(i, v)| v[0] == i as f32)
    );
}

#[tokio::test]
async fn a_batch_the_service_finds_too_large_is_halved() {
    let server = FakeServer::start(|r, _| {
        if r.json()["input"].as_array().unwrap().len() > 2 {
            Reply::json(
                400,
                json!({"detail": "Request to model 'voyage-4-large' failed. The max \
                allowed tokens per submitted batch is 120000. Your batch has 150000 tokens after \
                truncation. Please lower the number of tokens in the batch."}),
            )
        } else {
            embeddings(r)
        }
    })
    .await;
    let out = client(&server)
        .embed(embed_request(numbered(5), "voyage-4-large"))
        .await
        .unwrap();
    assert_eq!(out.embeddings, [[0.0], [1.0], [2.0], [3.0], [4.0]]);
    assert_eq!(server.requests().len(), 5, "5 → (2, 3 → (1, 2))");
    assert_eq!(
        out.usage,
        TokenUsage::input(5),
        "rejected requests cost nothing"
    );
}

#[tokio::test]
async fn rerank_sends_the_wire_format_and_returns_the_best_first() {
    let server = FakeServer::start(|r, _| rerank_scores(r)).await;
    let documents: Vec<String> = numbered(4);
    let out = client(&server)
        .rerank(RerankRequest {
            query: "what".into(),
            documents: documents.clone(),
            model: "rerank-2.5".into(),
            top_k: Some(2),
        })
        .await
        .unwrap();
    // Scores: 0 → 0.00, 1 → 0.37, 2 → 0.74, 3 → 0.10.
    let ranked: Vec<(usize, f64)> = out
        .results
        .iter()
        .map(|s| (s.index, s.relevance_score))
        .collect();
    assert_eq!(ranked, [(2, 0.74), (1, 0.37)]);
    assert_eq!(
        (out.model.as_str(), out.usage),
        ("rerank-2.5", TokenUsage::input(40))
    );
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/rerank");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(
        request.json(),
        json!({"query": "what", "documents": documents, "model": "rerank-2.5", "top_k": 2,
               "truncation": true})
    );
}

#[tokio::test]
async fn rerank_batches_merge_into_one_ranking_cut_to_top_k() {
    let server = FakeServer::start(|r, _| rerank_scores(r)).await;
    let out = client(&server)
        .rerank(RerankRequest {
            query: "what".into(),
            documents: numbered(2_500),
            model: "rerank-2.5".into(),
            top_k: Some(5),
        })
        .await
        .unwrap();
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert!(
        requests.iter().all(|r| r.json().get("top_k").is_none()),
        "top_k after merging"
    );
    // Score 1.00 needs n·37 ≡ 100 (mod 101), i.e. n ≡ 30 (mod 101): 30, 131, 232, 333, 434, ….
    assert_eq!(out.results.len(), 5);
    assert!(out.results.iter().all(|s| s.relevance_score == 1.0));
    let indices: Vec<usize> = out.results.iter().map(|s| s.index).collect();
    assert_eq!(indices, [30, 131, 232, 333, 434]);
    assert_eq!(out.usage, TokenUsage::input(25_000));
}

#[tokio::test]
async fn a_429_is_retried_after_the_retry_after_the_service_asked_for() {
    let server = FakeServer::start(|r, n| match n {
        0 => Reply::json(429, json!({"detail": "Too many requests"})).header("retry-after", "1"),
        _ => embeddings(r),
    })
    .await;
    let started = Instant::now();
    let out = client(&server)
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap();
    assert_eq!(out.embeddings, [[0.0]]);
    assert_eq!(server.requests().len(), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(
        server.requests()[0].body,
        server.requests()[1].body,
        "the same request again"
    );
}

#[tokio::test]
async fn rate_limits_that_persist_end_with_the_number_of_attempts() {
    let server = FakeServer::start(|_, _| {
        Reply::json(429, json!({"detail": "Too many requests"})).header("Retry-After", "0")
    })
    .await;
    let err = client(&server)
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap_err();
    assert_eq!(server.requests().len(), 3, "first try + max_retries (2)");
    assert_eq!(err.retry_after(), Some(Duration::ZERO));
    assert_eq!(
        err.to_string(),
        "voyage: rate limited (retry after 0ms): rate limited by Voyage AI after 3 attempts: Too many requests"
    );
}

#[tokio::test]
async fn a_retry_after_too_long_to_wait_is_reported_at_once() {
    let server = FakeServer::start(|_, _| {
        Reply::json(429, json!({"detail": "slow down"})).header("retry-after", "3600")
    })
    .await;
    let err = client(&server)
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap_err();
    assert_eq!(server.requests().len(), 1);
    assert!(
        matches!(err, ProviderError::RateLimited { retry_after: Some(d), .. } if d == Duration::from_secs(3600))
    );
}

#[tokio::test]
async fn server_errors_are_retried_with_backoff() {
    let server = FakeServer::start(|r, n| match n {
        0 => Reply::json(500, json!({"detail": "Internal server error"})),
        1 => Reply::text(502, "bad gateway"),
        _ => embeddings(r),
    })
    .await;
    let out = client(&server)
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap();
    assert_eq!(out.embeddings, [[0.0]]);
    assert_eq!(server.requests().len(), 3);

    let down =
        FakeServer::start(|_, _| Reply::json(503, json!({"detail": "Service unavailable"}))).await;
    let err = client(&down)
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap_err();
    assert_eq!(down.requests().len(), 3);
    assert_eq!(
        err,
        ProviderError::Server {
            provider: "voyage".into(),
            status: 503,
            message: "Service unavailable (after 3 attempts)".into()
        }
    );
}

#[tokio::test]
async fn client_errors_are_never_retried_and_carry_voyages_detail() {
    let server = FakeServer::start(|_, _| {
        Reply::json(400, json!({"detail": "Model voyage-9 is not supported."}))
    })
    .await;
    let err = client(&server)
        .embed(embed_request(numbered(1), "voyage-9"))
        .await
        .unwrap_err();
    assert_eq!(server.requests().len(), 1);
    assert_eq!(
        err,
        ProviderError::invalid_request("voyage", "Model voyage-9 is not supported. (HTTP 400)")
    );
}

#[tokio::test]
async fn a_rejected_key_says_to_check_it_and_never_shows_it() {
    let server = FakeServer::start(|_, _| {
        Reply::json(
            401,
            json!({"detail": format!("Provided API key {KEY} is invalid.")}),
        )
    })
    .await;
    let err = client(&server)
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap_err();
    assert_eq!(server.requests().len(), 1, "never retried");
    let ProviderError::Auth { message, .. } = &err else {
        panic!("expected Auth, got {err:?}")
    };
    assert!(message.starts_with("Voyage AI rejected the API key (401): check VOYAGE_API_KEY"));
    assert!(
        message.ends_with("Provided API key <redacted> is invalid."),
        "{message}"
    );
    assert!(!format!("{err} {err:?}").contains(KEY));
}

#[test]
fn a_key_sent_to_the_other_endpoint_is_pointed_out() {
    let mismatched = VoyageClient::new(VoyageConfig {
        base_url: Some(VOYAGE_BASE.into()),
        ..VoyageConfig::new("al-k")
    })
    .unwrap();
    assert!(
        mismatched
            .key_base_hint()
            .contains("MongoDB Atlas key (al-)")
    );
    assert_eq!(
        VoyageClient::new(VoyageConfig::new("al-k"))
            .unwrap()
            .key_base_hint(),
        ""
    );
}

#[tokio::test]
async fn a_slow_answer_times_out_and_is_retried() {
    let server = FakeServer::start(|_, _| embedding_ok().delayed(Duration::from_millis(800))).await;
    let voyage = VoyageClient::new(VoyageConfig {
        timeout: Duration::from_millis(150),
        max_retries: 1,
        ..config(&server)
    })
    .unwrap();
    let err = voyage
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        ProviderError::Timeout {
            provider: "voyage".into(),
            after: Duration::from_millis(150)
        }
    );
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn malformed_answers_say_what_was_wrong() {
    let cases = [
        (
            Reply::text(200, "{\"data\": [1, "),
            "malformed JSON (EOF while parsing",
        ),
        (
            Reply::text(200, "<html>proxy login</html>"),
            "the body starts \"<html>proxy login</html>\"",
        ),
        (
            Reply::json(200, json!({"model": "m"})),
            "an unexpected shape (missing field `data`",
        ),
        (
            Reply::json(200, json!({"data": [{"embedding": "AAAA", "index": 0}]})),
            "an unexpected shape (invalid type: string",
        ),
        (
            Reply::json(200, json!({"data": []})),
            "Voyage AI answered /embeddings with 0 embeddings for 1 inputs",
        ),
        (
            Reply::json(200, json!({"data": [{"embedding": [1.0], "index": 4}]})),
            "index 4 for 1 inputs",
        ),
    ];
    for (reply, expected) in cases {
        let server = FakeServer::start(move |_, _| reply.clone()).await;
        let err = client(&server)
            .embed(embed_request(numbered(1), "voyage-4-large"))
            .await
            .unwrap_err();
        assert!(matches!(err, ProviderError::Other { .. }), "{err:?}");
        assert!(
            err.to_string().contains(expected),
            "{err} should contain {expected}"
        );
        assert_eq!(
            server.requests().len(),
            1,
            "a malformed answer is not retried"
        );
    }
}

#[tokio::test]
async fn a_refused_connection_is_a_network_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let voyage = VoyageClient::new(VoyageConfig {
        base_url: Some(format!("http://127.0.0.1:{port}/v1")),
        max_retries: 1,
        initial_backoff: Duration::from_millis(1),
        ..VoyageConfig::new(KEY)
    })
    .unwrap();
    let err = voyage
        .embed(embed_request(numbered(1), "voyage-4-large"))
        .await
        .unwrap_err();
    let ProviderError::Network { message, .. } = &err else {
        panic!("expected Network, got {err:?}")
    };
    assert!(
        message.starts_with(&format!(
            "could not connect to Voyage AI at http://127.0.0.1:{port}/v1"
        )),
        "{message}"
    );
    assert!(message.ends_with("(after 2 attempts)"), "{message}");
}

/// Benchmark: 10,000 chunks of 512 bytes (the `ingest` default chunk size) take the fewest
/// requests the limits allow. Each chunk is estimated at ⌈512 / 3⌉ = 171 tokens, so:
/// - voyage-4-large (120,000 tokens/request): 701 chunks per request → 15 requests, and no split
///   can do better: ⌈10,000 · 171 / 120,000⌉ = ⌈14.25⌉ = 15;
/// - voyage-4 (320,000) and voyage-4-lite (1,000,000): the 1,000-input limit binds → 10 requests.
#[tokio::test]
async fn ten_thousand_chunks_take_the_minimum_number_of_requests() {
    const CHUNKS: usize = 10_000;
    let chunks: Vec<String> = (0..CHUNKS)
        .map(|i| {
            let mut text = format!("{i} chunk of a longer document ");
            while text.len() < 512 {
                text.push_str("lorem ipsum ");
            }
            text.truncate(512);
            text
        })
        .collect();
    for (model, expected) in [
        ("voyage-4-large", 15),
        ("voyage-4", 10),
        ("voyage-4-lite", 10),
    ] {
        let budget = embed_token_limit(model);
        let total: u64 = chunks.iter().map(|c| estimate_tokens(c)).sum();
        let lower_bound = CHUNKS
            .div_ceil(MAX_EMBED_INPUTS)
            .max(total.div_ceil(budget) as usize);
        assert_eq!(lower_bound, expected);

        let server = FakeServer::start(|r, _| embeddings(r)).await;
        let out = client(&server)
            .embed(embed_request(chunks.clone(), model))
            .await
            .unwrap();
        let requests = server.requests();
        eprintln!(
            "{model}: {CHUNKS} chunks in {} requests (minimum {lower_bound})",
            requests.len()
        );
        assert_eq!(requests.len(), lower_bound, "{model}");
        for r in &requests {
            let input = r.json()["input"].as_array().unwrap().clone();
            let tokens: u64 = input
                .iter()
                .map(|t| estimate_tokens(t.as_str().unwrap()))
                .sum();
            assert!(input.len() <= MAX_EMBED_INPUTS && tokens <= budget);
        }
        assert_eq!(out.embeddings.len(), CHUNKS);
        assert!(
            out.embeddings
                .iter()
                .enumerate()
                .all(|(i, v)| v[0] == i as f32),
            "order kept"
        );
        assert_eq!(out.usage, TokenUsage::input(CHUNKS as u64));
    }
}
