//! Voyage AI embeddings and reranking over HTTP (being written).
