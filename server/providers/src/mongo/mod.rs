//! MongoDB Atlas Vector Search as a VectorStore (being written).
