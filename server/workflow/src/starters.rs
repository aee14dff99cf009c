//! The starting points of a new workflow — `vai workflow init --template` and the playground's
//! "New workflow" menu — each with a first test case: one owner for both.

use serde_json::{Value, json};

/// A starting point for a new workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Starter {
    /// Vector search with reranking.
    Search,
    /// Search, then answer with an LLM from the results.
    Rag,
    /// Chunk and ingest a text.
    Ingest,
}

/// The URL of the workflow JSON Schema, as a new file's `$schema`.
pub const SCHEMA_URL: &str = "https://vai.dev/schemas/workflow-v1.json";

impl Starter {
    /// Every starter, in menu order.
    pub const ALL: [Starter; 3] = [Starter::Search, Starter::Rag, Starter::Ingest];

    /// The name `vai workflow init --template` takes and the playground's route answers.
    pub fn id(self) -> &'static str {
        match self {
            Starter::Search => "search",
            Starter::Rag => "rag",
            Starter::Ingest => "ingest",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }

    /// A short title for a menu.
    pub fn label(self) -> &'static str {
        match self {
            Starter::Search => "Search",
            Starter::Rag => "Search and answer (RAG)",
            Starter::Ingest => "Ingest a text",
        }
    }

    /// What the workflow does; also its `description`.
    pub fn description(self) -> &'static str {
        match self {
            Starter::Search => "Search a collection and rerank the results",
            Starter::Rag => "Search a collection, then answer the question from the results",
            Starter::Ingest => "Chunk a text and store it with embeddings",
        }
    }

    /// The workflow file, named `name`, keys in the stable order (`vai_workflow::format`).
    pub fn workflow(self, name: &str) -> Value {
        let (inputs, steps, output) = match self {
            Starter::Search => (
                query_inputs(),
                json!([search_step()]),
                json!({"results": "{{ search.output.results }}", "count": "{{ search.output.resultCount }}"}),
            ),
            Starter::Rag => (
                query_inputs(),
                json!([
                    search_step(),
                    {
                        "id": "answer",
                        "name": "Answer from the results",
                        "tool": "generate",
                        "condition": "{{ search.output.resultCount > 0 }}",
                        "inputs": {"prompt": "{{ inputs.query }}", "context": "{{ search.output.results }}"}
                    }
                ]),
                json!({"answer": "{{ answer.output.text || 'No relevant documents found.' }}", "sources": "{{ search.output.results }}"}),
            ),
            Starter::Ingest => (
                json!({
                    "text": {"type": "string", "description": "The text to ingest", "required": true},
                    "source": {"type": "string", "description": "Where it came from", "default": "manual"}
                }),
                json!([{
                    "id": "store",
                    "name": "Chunk, embed and store",
                    "tool": "ingest",
                    "inputs": {"text": "{{ inputs.text }}", "source": "{{ inputs.source }}"}
                }]),
                json!({"chunks": "{{ store.output.chunks }}", "inserted": "{{ store.output.insertedCount }}"}),
            ),
        };
        json!({
            "$schema": SCHEMA_URL,
            "name": name,
            "description": self.description(),
            "version": "1.0.0",
            "inputs": inputs,
            "defaults": {},
            "steps": steps,
            "output": output
        })
    }

    /// A test case (docs/workflows.md "Test cases") that `vai workflow test` passes on the
    /// starter's workflow: providers mocked, expectations on the final output.
    pub fn test_case(self) -> Value {
        let results = json!({"results": [{"text": "Example passage", "source": "example.md", "score": 0.9}], "resultCount": 1});
        match self {
            Starter::Search => json!({
                "name": "finds results",
                "inputs": {"query": "example"},
                "mocks": {"query": results},
                "expect": {"steps": {"search": {"status": "completed"}}, "output": {"count": {"equals": 1}}, "noErrors": true}
            }),
            Starter::Rag => json!({
                "name": "answers from results",
                "inputs": {"query": "example"},
                "mocks": {"query": results, "generate": {"text": "An answer.", "model": "mock", "provider": "mock"}},
                "expect": {"steps": {"search": {"status": "completed"}, "answer": {"status": "completed"}}, "output": {"answer": {"equals": "An answer."}}, "noErrors": true}
            }),
            Starter::Ingest => json!({
                "name": "stores chunks",
                "inputs": {"text": "Some text to store."},
                "mocks": {"ingest": {"insertedCount": 1, "chunks": 1, "source": "manual", "model": "mock", "indexCreated": false}},
                "expect": {"steps": {"store": {"status": "completed"}}, "output": {"inserted": {"equals": 1}}, "noErrors": true}
            }),
        }
    }
}

fn search_step() -> Value {
    json!({
        "id": "search",
        "name": "Search the knowledge base",
        "tool": "query",
        "inputs": {"query": "{{ inputs.query }}", "limit": "{{ inputs.limit }}"}
    })
}

fn query_inputs() -> Value {
    json!({
        "query": {"type": "string", "description": "What to search for", "required": true},
        "limit": {"type": "number", "description": "How many results", "default": 5}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for s in Starter::ALL {
            assert_eq!(Starter::from_id(s.id()), Some(s));
        }
        assert_eq!(Starter::from_id("nope"), None);
    }

    /// What `vai workflow init` writes is already in the stable form `vai workflow fmt` keeps.
    #[test]
    fn workflows_are_in_the_stable_form() {
        for s in Starter::ALL {
            let value = s.workflow("My flow");
            let mut pretty = serde_json::to_string_pretty(&value).unwrap();
            pretty.push('\n');
            assert_eq!(crate::format::format(&value), pretty, "{}", s.id());
        }
    }
}
