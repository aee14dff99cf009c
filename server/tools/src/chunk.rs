//! The `chunk` tool and the chunker it shares with `ingest`: split text into overlapping,
//! size-bounded pieces by one of five strategies.

mod options;
mod split;

pub use options::{
    ChunkError, ChunkOptions, DEFAULT_OVERLAP, DEFAULT_SIZE, MAX_CHUNKS, MAX_SIZE, Strategy,
};
pub use split::Chunk;

use crate::args::{self, NO_API_CALLS};
use serde_json::{Map, Value, json};
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{
    Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec,
};

const NAME: &str = "chunk";

/// Split `text` into chunks of at most `opts.size` characters; consecutive chunks share up to
/// `opts.overlap` characters. Empty or blank text gives no chunks. The chunks' text may take at
/// most `max_bytes` together — overlap repeats text, so a small input can ask for gigabytes —
/// and is refused before a chunk past it is allocated.
pub fn chunk_text(
    text: &str,
    opts: &ChunkOptions,
    max_bytes: u64,
) -> Result<Vec<Chunk>, ChunkError> {
    split::split(text, opts, max_bytes)
}

impl Chunk {
    /// The chunk as the `chunk` tool outputs it (its text moved, not copied).
    pub fn into_json(self, strategy: Strategy, source: Option<&str>) -> Value {
        let mut metadata = Map::new();
        metadata.insert("strategy".into(), strategy.as_str().into());
        if let Some(h) = self.heading {
            metadata.insert("heading".into(), h.into());
        }
        let mut out = Map::new();
        out.insert("index".into(), self.index.into());
        out.insert("content".into(), self.content.into());
        out.insert("charCount".into(), self.char_count.into());
        if let Some(s) = source {
            out.insert("source".into(), s.into());
        }
        out.insert("metadata".into(), Value::Object(metadata));
        Value::Object(out)
    }
}

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Splits text into chunks.
pub struct ChunkTool;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Chunk text",
        category: Category::Management,
        icon: "ContentCut",
        description: "Split text into overlapping chunks ready for embedding",
        help: "Splits `text` into chunks of at most `size` characters. `recursive` (the default) ends each chunk at the strongest break that fits — a paragraph, then a line, a sentence, a word, a character; `paragraph` and `sentence` keep those units whole where they fit; `markdown` also starts sections at headings and records each chunk's heading; `fixed` cuts every `size` characters. Consecutive chunks share up to `overlap` characters (starting on a word), for every strategy. Chunks are trimmed, never empty, and never split a character; blank text gives zero chunks.",
        input_schema: InputSchema::new()
            .required_input(
                "text",
                PropertySchema::of(JsonType::String)
                    .describe("The text to split (may be empty)")
                    .format(WidgetFormat::Multiline),
            )
            .input("strategy", strategy_input("Where chunks may end"))
            .input("size", size_input())
            .input("overlap", overlap_input("size"))
            .input(
                "source",
                PropertySchema::of(JsonType::String)
                    .describe("Label copied to every chunk (a file name or URL)"),
            ),
        outputs: &[
            (
                "chunks",
                "[{index, content, charCount, source?, metadata: {strategy, heading?}}]",
            ),
            ("totalChunks", "number of chunks"),
            ("strategy", "the strategy used"),
            ("avgChunkSize", "mean chunk length in characters, rounded"),
        ],
        deferred: &[],
        main_input: Some("text"),
        api_calls: NO_API_CALLS,
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

/// The chunking inputs `chunk` and `ingest` share.
pub(crate) fn strategy_input(description: &str) -> PropertySchema {
    PropertySchema::of(JsonType::String)
        .choices(Strategy::NAMES)
        .defaults_to(Strategy::Recursive.as_str())
        .describe(description)
}

pub(crate) fn size_input() -> PropertySchema {
    PropertySchema::of(JsonType::Integer)
        .min(1u64)
        .max(MAX_SIZE as u64)
        .defaults_to(DEFAULT_SIZE as u64)
        .describe("Largest chunk, in characters")
}

/// No declared default: when omitted the overlap depends on the size (see `ChunkOptions::new`).
pub(crate) fn overlap_input(size_input: &str) -> PropertySchema {
    PropertySchema::of(JsonType::Integer)
        .min(0u64)
        .max(MAX_SIZE as u64)
        .describe(&format!(
            "Characters shared by consecutive chunks; must be smaller than {size_input}. When omitted: {DEFAULT_OVERLAP}, or half of {size_input} when that is less"
        ))
}

impl Tool for ChunkTool {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let text = match call.inputs.get("text") {
                Some(Value::String(s)) => s.as_str(),
                None | Some(Value::Null) => return Err(ToolError::required(NAME, "text")),
                Some(other) => {
                    return Err(ToolError::invalid(
                        NAME,
                        "text",
                        format!("must be a string, got {}", args::kind(other)),
                    ));
                }
            };
            let strategy = args::choice(&SPEC, &call, "strategy")?;
            let strategy = Strategy::parse(strategy).ok_or_else(|| {
                ToolError::invalid(NAME, "strategy", format!("unknown strategy \"{strategy}\""))
            })?;
            let size = args::count(&SPEC, &call, "size")? as usize;
            let overlap = args::opt_count(&SPEC, &call, "overlap")?.map(|n| n as usize);
            let opts = ChunkOptions::new(strategy, size, overlap).map_err(|e| {
                let field = if matches!(e, ChunkError::Overlap { .. }) {
                    "overlap"
                } else {
                    "size"
                };
                ToolError::invalid(NAME, field, e.to_string())
            })?;
            let source = args::opt_string(&call, "source");
            let chunks =
                chunk_text(text, &opts, call.budget().remaining()).map_err(|e| match e {
                    ChunkError::TooLarge { .. } => {
                        ToolError::limit("output.chunks", call.budget().limit())
                    }
                    e => ToolError::invalid(NAME, "size", e.to_string()),
                })?;
            let total_chars: usize = chunks.iter().map(|c| c.char_count).sum();
            let avg = if chunks.is_empty() {
                0
            } else {
                (total_chars as f64 / chunks.len() as f64).round() as u64
            };
            // The text is within the budget; each chunk's fields are charged as they are added.
            let total = chunks.len();
            let overhead = 80 + source.as_ref().map_or(0, |s| s.len() as u64 + 12);
            let mut json = Vec::with_capacity(total);
            for c in chunks {
                call.charge("output.chunks", c.content.len() as u64 + overhead)?;
                json.push(c.into_json(strategy, source.as_deref()));
            }
            Ok(ToolOutput::new(json!({
                "chunks": json,
                "totalChunks": total,
                "strategy": strategy.as_str(),
                "avgChunkSize": avg,
            })))
        })
    }
}

#[cfg(test)]
mod tests;
