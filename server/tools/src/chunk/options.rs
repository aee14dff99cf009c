//! What the chunker is asked for: the five strategies, the size and overlap bounds, validated
//! [`ChunkOptions`], and why text could not be chunked.

/// Most chunks one call may produce.
pub const MAX_CHUNKS: usize = 100_000;
/// Largest accepted chunk size, in characters.
pub const MAX_SIZE: usize = 1_000_000;
pub const DEFAULT_SIZE: usize = 512;
pub const DEFAULT_OVERLAP: usize = 50;

/// How text is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Windows of exactly `size` characters.
    Fixed,
    /// Whole sentences grouped up to `size`.
    Sentence,
    /// Whole paragraphs grouped up to `size`; long paragraphs split by sentence, then word.
    Paragraph,
    /// Paragraphs, then lines, then sentences, then words, then characters.
    Recursive,
    /// Like recursive, but sections start at headings and each chunk records its heading.
    Markdown,
}

impl Strategy {
    pub const NAMES: [&'static str; 5] =
        ["fixed", "sentence", "paragraph", "recursive", "markdown"];

    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "fixed" => Some(Strategy::Fixed),
            "sentence" => Some(Strategy::Sentence),
            "paragraph" => Some(Strategy::Paragraph),
            "recursive" => Some(Strategy::Recursive),
            "markdown" => Some(Strategy::Markdown),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed",
            Strategy::Sentence => "sentence",
            Strategy::Paragraph => "paragraph",
            Strategy::Recursive => "recursive",
            Strategy::Markdown => "markdown",
        }
    }
}

/// Validated chunking settings. Sizes are in characters (Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkOptions {
    pub strategy: Strategy,
    pub size: usize,
    pub overlap: usize,
}

impl Default for ChunkOptions {
    fn default() -> Self {
        Self {
            strategy: Strategy::Recursive,
            size: DEFAULT_SIZE,
            overlap: DEFAULT_OVERLAP,
        }
    }
}

impl ChunkOptions {
    /// Checks `1 ≤ size ≤ MAX_SIZE` and `overlap < size`. Without an explicit overlap, the
    /// default of 50 is capped at half the size, so a small `size` alone is never an error.
    pub fn new(
        strategy: Strategy,
        size: usize,
        overlap: Option<usize>,
    ) -> Result<Self, ChunkError> {
        if size == 0 || size > MAX_SIZE {
            return Err(ChunkError::Size { size });
        }
        let overlap = overlap.unwrap_or(DEFAULT_OVERLAP.min(size / 2));
        if overlap >= size {
            return Err(ChunkError::Overlap { overlap, size });
        }
        Ok(Self {
            strategy,
            size,
            overlap,
        })
    }
}

/// Why text could not be chunked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChunkError {
    #[error("size must be between 1 and {MAX_SIZE} characters, got {size}")]
    Size { size: usize },
    #[error("overlap ({overlap}) must be smaller than size ({size})")]
    Overlap { overlap: usize, size: usize },
    #[error("the text would produce more than {max} chunks; use a larger size")]
    TooManyChunks { max: usize },
    #[error(
        "the chunks would together hold more than {max} bytes of text; use a smaller overlap or a larger size"
    )]
    TooLarge { max: u64 },
}
