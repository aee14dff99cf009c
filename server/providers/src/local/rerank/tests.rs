//! Tests of `LocalReranker`: its methods with the deterministic fake embedder, and the token
//! vectors of the installed model (those print "skipped: …" and pass without the weights).

use super::late::TokenEmbedder;
use crate::local::embed::{LocalEmbedder, ModelLocation, find_model_dir};
use crate::{EmbedInputType, EmbedRequest, Embedder, cosine_similarity};

/// The query's embedding in late interaction is the mean of its token vectors: that must be
/// the local embedder's vector of the same text (which `embed_tokens` must not have changed).
#[tokio::test]
async fn the_mean_of_a_texts_token_vectors_is_its_embedding() {
    let dir = match find_model_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    let texts = vec![
        "A man is eating food.".to_string(),
        "how long do idempotency keys last?".to_string(),
    ];
    let embedder = LocalEmbedder::new(ModelLocation::Dir(dir));
    let tokens = embedder.embed_tokens(texts.clone()).await.unwrap();
    let embedded = embedder
        .embed(EmbedRequest {
            texts,
            model: String::new(),
            input_type: Some(EmbedInputType::Query),
            dimensions: None,
        })
        .await
        .unwrap();
    assert_eq!(
        tokens[1].tokens,
        [
            "[CLS]", "how", "long", "do", "id", "##em", "##pot", "##ency", "keys", "last", "?",
            "[SEP]"
        ]
    );
    for (t, v) in tokens.iter().zip(&embedded.embeddings) {
        assert_eq!(t.tokens.len(), t.vectors.len());
        let pooled = super::late::pooled(t);
        assert!(cosine_similarity(&pooled, v) > 0.999_999, "{:?}", t.tokens);
        for (a, b) in pooled.iter().zip(v) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}

#[cfg(feature = "fakes")]
mod with_the_fake_embedder {
    use super::super::late::TokenVectors;
    use super::super::*;
    use crate::fakes::FakeEmbedder;

    fn request(query: &str, documents: &[&str], top_k: Option<usize>) -> RerankRequest {
        RerankRequest {
            query: query.into(),
            documents: documents.iter().map(|d| d.to_string()).collect(),
            model: "rerank-2.5".into(),
            top_k,
        }
    }

    #[tokio::test]
    async fn the_document_about_the_query_moves_to_the_top() {
        let r = LocalReranker::new(Arc::new(FakeEmbedder::new(256)));
        assert_eq!(r.name(), "local");
        let response = r
            .rerank(request(
                "how does vector search rank documents",
                &[
                    "Cooking pasta takes ten minutes in salted water.",
                    "The stock market closed higher today.",
                    "A search engine ranks web pages by links.",
                    "Vector search ranks documents by the similarity of their embeddings.",
                ],
                Some(3),
            ))
            .await
            .unwrap();
        let order: Vec<usize> = response.results.iter().map(|s| s.index).collect();
        assert_eq!(order.len(), 3);
        assert_eq!(order[..2], [3, 2]);
        let scores: Vec<f64> = response.results.iter().map(|s| s.relevance_score).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));
        assert!(response.model.starts_with("local-hybrid"));
        assert!(response.usage.input_tokens > 0);
    }

    #[tokio::test]
    async fn weights_choose_between_meaning_and_words_and_nothing_to_rank_is_empty() {
        let embedder = Arc::new(FakeEmbedder::new(64));
        let lexical_only = LocalReranker::new(embedder.clone()).with_semantic_weight(0.0);
        let response = lexical_only
            .rerank(request(
                "zebra",
                &["a horse", "zebra zebra", "the zebra"],
                None,
            ))
            .await
            .unwrap();
        assert_eq!(response.results.len(), 3);
        assert_eq!(response.results[0].relevance_score, 1.0);
        assert_eq!(response.results[2].relevance_score, 0.0);
        assert_eq!(response.results[2].index, 0);

        let calls = embedder.requests().len();
        let none = LocalReranker::new(embedder.clone())
            .rerank(request("q", &[], Some(5)))
            .await
            .unwrap();
        assert!(none.results.is_empty());
        assert_eq!(
            embedder.requests().len(),
            calls,
            "no embedding call for nothing"
        );
    }

    #[tokio::test]
    async fn documents_the_store_holds_are_not_embedded_again() {
        use crate::{Namespace, VectorIndex, VectorQuery, VectorStore, vector_to_json};
        let dir = std::env::temp_dir().join(format!("vai-rerank-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Arc::new(LocalStore::open(&dir.join("store.sqlite3")).unwrap());
        let embedder = Arc::new(FakeEmbedder::new(32));
        let ns = Namespace::new("db", "docs");
        let index = VectorIndex {
            name: "vector_index".into(),
            path: "embedding".into(),
            dimensions: 32,
        };
        store.ensure_vector_index(&ns, &index).await.unwrap();
        let stored = [
            "Vector search ranks documents by similarity.",
            "Cooking pasta takes ten minutes.",
        ];
        let docs = stored
            .iter()
            .map(|t| {
                let mut d = serde_json::Map::new();
                d.insert("text".into(), (*t).into());
                d.insert("embedding".into(), vector_to_json(&embedder.vector(t)));
                d
            })
            .collect();
        store.insert(&ns, docs).await.unwrap();
        // A search loads the collection, as the query step before a rerank does.
        let query = VectorQuery {
            namespace: ns,
            index: "vector_index".into(),
            path: "embedding".into(),
            vector: embedder.vector("vector search"),
            limit: 2,
            num_candidates: 2,
            filter: None,
            fields: vec!["text".into()],
        };
        store.vector_search(query).await.unwrap();

        let before = embedder.requests().len();
        let with_store = LocalReranker::new(embedder.clone()).with_stored_vectors(store.clone());
        let documents = [stored[1], "A document the store does not hold.", stored[0]];
        let reranked = with_store
            .rerank(request("how does vector search rank", &documents, None))
            .await
            .unwrap();
        let asked: Vec<Vec<String>> = embedder.requests()[before..]
            .iter()
            .map(|r| r.texts.clone())
            .collect();
        assert_eq!(
            asked,
            [
                vec!["how does vector search rank".to_string()],
                vec![documents[1].to_string()]
            ]
        );
        // The same order as embedding every document.
        let plain = LocalReranker::new(embedder.clone())
            .rerank(request("how does vector search rank", &documents, None))
            .await
            .unwrap();
        let order = |r: &RerankResponse| r.results.iter().map(|s| s.index).collect::<Vec<_>>();
        assert_eq!(order(&reranked), order(&plain));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Word pieces are whole lowercase words, each word's vector the fake embedder's: a query
    /// word found in a document scores 1 there.
    struct FakeTokens {
        words: FakeEmbedder,
        calls: std::sync::Mutex<Vec<Vec<String>>>,
    }

    impl FakeTokens {
        fn new() -> Self {
            FakeTokens {
                words: FakeEmbedder::new(64),
                calls: Default::default(),
            }
        }
    }

    #[async_trait]
    impl TokenEmbedder for FakeTokens {
        fn model(&self) -> &str {
            "fake-tokens"
        }

        async fn embed_tokens(
            &self,
            texts: Vec<String>,
        ) -> Result<Vec<TokenVectors>, ProviderError> {
            self.calls.lock().unwrap().push(texts.clone());
            Ok(texts
                .iter()
                .map(|t| {
                    let words = t
                        .split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty())
                        .map(str::to_lowercase);
                    let tokens: Vec<String> = std::iter::once("[CLS]".to_string())
                        .chain(words)
                        .chain(std::iter::once("[SEP]".to_string()))
                        .collect();
                    let vectors = tokens.iter().map(|w| self.words.vector(w)).collect();
                    TokenVectors { tokens, vectors }
                })
                .collect())
        }
    }

    #[tokio::test]
    async fn late_interaction_ranks_by_matching_words_and_reads_each_document_once() {
        let tokens = Arc::new(FakeTokens::new());
        let r =
            LocalReranker::new(Arc::new(FakeEmbedder::new(64))).with_token_embedder(tokens.clone());
        assert_eq!(r.method(), RerankMethod::LateInteraction);
        let documents = [
            "Cooking pasta takes ten minutes.",
            "Keys expire. Idempotency keys are kept for a day.",
            "Keys are shown once.",
        ];
        let response = r
            .rerank(request("idempotency keys", &documents, None))
            .await
            .unwrap();
        let order: Vec<usize> = response.results.iter().map(|s| s.index).collect();
        assert_eq!(order, [1, 2, 0]);
        assert!(response.model.starts_with("local-late-interaction"));
        assert!(response.usage.input_tokens > 0);
        // The query, then every document's sentences in one call.
        let calls = tokens.calls.lock().unwrap().clone();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[1].len(), 4, "{calls:?}");

        let again = r
            .rerank(request("pasta", &documents, Some(1)))
            .await
            .unwrap();
        assert_eq!(again.results[0].index, 0);
        assert_eq!(
            tokens.calls.lock().unwrap().len(),
            3,
            "only the new query is read; the documents are kept"
        );
    }

    #[tokio::test]
    async fn late_interaction_without_a_token_embedder_says_so_and_prepare_fills_the_cache() {
        let embedder = Arc::new(FakeEmbedder::new(16));
        let err = LocalReranker::new(embedder.clone())
            .with_method(RerankMethod::LateInteraction)
            .rerank(request("q", &["d"], None))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("token embedder"), "{err}");

        let sentences = LocalReranker::new(embedder.clone()).with_method(RerankMethod::Sentences);
        let docs = ["One. Two.".to_string(), "Three.".to_string()];
        let before = embedder.requests().len();
        assert!(sentences.prepare(&docs).await.unwrap() > 0);
        assert_eq!(embedder.requests().len(), before + 1);
        assert_eq!(
            embedder.requests()[before].texts,
            ["One.", "Two.", "Three."]
        );
        let response = sentences
            .rerank(request("two", &["Three.", "One. Two."], None))
            .await
            .unwrap();
        assert!(response.model.starts_with("local-sentences"));
        assert_eq!(
            embedder.requests().len(),
            before + 3,
            "the query and the documents' vectors; the sentences were prepared"
        );
        assert_eq!(
            LocalReranker::new(embedder).prepare(&docs).await.unwrap(),
            0
        );
    }

    #[tokio::test]
    async fn embedder_failures_are_passed_on() {
        let embedder = Arc::new(FakeEmbedder::new(8));
        embedder.fail_next(ProviderError::other("fake", "boom"));
        let err = LocalReranker::new(embedder)
            .rerank(request("q", &["d"], None))
            .await
            .unwrap_err();
        assert_eq!(err.to_string(), "fake: boom");
    }
}
