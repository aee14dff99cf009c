//! Provider traits for embeddings, reranking, vector storage and LLMs.
