use super::*;
use vai_workflow::Context;

async fn run(inputs: Value) -> Result<Value, ToolError> {
    let scope = Context::new();
    let defaults = json!({});
    let call = ToolCall::standalone("c", inputs.as_object().unwrap().clone(), &defaults, &scope);
    ChunkTool.run(call).await.map(|o| o.output)
}

fn opts(strategy: Strategy, size: usize, overlap: usize) -> ChunkOptions {
    ChunkOptions::new(strategy, size, Some(overlap)).unwrap()
}

/// Invariants every chunking must keep, whatever the strategy.
fn check(text: &str, o: &ChunkOptions) -> Vec<Chunk> {
    let chunks = chunk_text(text, o, u64::MAX).unwrap();
    let mut covered = vec![false; text.len()];
    for (i, c) in chunks.iter().enumerate() {
        assert_eq!(c.index, i);
        assert!(!c.content.is_empty());
        assert_eq!(
            c.content,
            text[c.start..c.end],
            "content is the text it came from"
        );
        assert_eq!(c.content.trim(), c.content);
        assert_eq!(c.char_count, c.content.chars().count());
        assert!(
            c.char_count <= o.size,
            "{} > {} ({:?})",
            c.char_count,
            o.size,
            o.strategy
        );
        covered[c.start..c.end].iter_mut().for_each(|b| *b = true);
        if i > 0 {
            let prev = &chunks[i - 1];
            assert!(
                c.start >= prev.start && c.end > prev.end,
                "chunks advance: {:?} then {:?} ({:?} {} {})",
                prev.content,
                c.content,
                o.strategy,
                o.size,
                o.overlap
            );
            if c.start < prev.end {
                let shared = text[c.start..prev.end].chars().count();
                assert!(
                    shared <= o.overlap,
                    "shared {shared} > overlap {}",
                    o.overlap
                );
            }
        }
    }
    for (pos, ch) in text.char_indices() {
        assert!(
            ch.is_whitespace() || covered[pos],
            "{ch:?} at {pos} is in no chunk ({:?})",
            o.strategy
        );
    }
    chunks
}

/// Deterministic pseudo-random prose with paragraphs, lines, sentences and multibyte text.
fn prose(seed: u64, words: usize) -> String {
    const VOCAB: [&str; 12] = [
        "vector",
        "search",
        "embeddings",
        "Ünïcödé",
        "日本語のテキスト",
        "rerank",
        "🦀crab",
        "a",
        "retrieval",
        "x",
        "superlongwordwithoutanyspacesatalltoforcecharactersplits",
        "chunk",
    ];
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut out = String::new();
    for i in 0..words {
        out.push_str(VOCAB[next() % VOCAB.len()]);
        out.push_str(match next() % 20 {
            0 => ". ",
            1 => ".\n\n",
            2 => "\n",
            3 => "? ",
            4 => "。",
            5 if i % 7 == 0 => "\n\n## Heading\n",
            6 if i % 5 == 0 => "   \n \n\t\t      \r\n          ",
            7 if i % 3 == 0 => "\n```\ncode. More code\n\n```\n",
            _ => " ",
        });
    }
    out
}

const SEEDS: u64 = 6;

#[test]
fn invariants_hold_for_every_strategy_and_size() {
    let strategies = [
        Strategy::Fixed,
        Strategy::Sentence,
        Strategy::Paragraph,
        Strategy::Recursive,
        Strategy::Markdown,
    ];
    for seed in 0..SEEDS {
        let text = prose(seed, 400);
        for strategy in strategies {
            for (size, overlap) in [(1, 0), (7, 3), (40, 10), (100, 0), (512, 50), (5000, 100)] {
                check(&text, &opts(strategy, size, overlap));
            }
        }
    }
}

#[test]
fn blank_text_gives_no_chunks_and_short_text_one() {
    for text in ["", "   \n\n  "] {
        assert!(
            chunk_text(text, &ChunkOptions::default(), u64::MAX)
                .unwrap()
                .is_empty()
        );
    }
    let chunks = chunk_text("  Hello world.  ", &ChunkOptions::default(), u64::MAX).unwrap();
    assert_eq!(chunks.len(), 1);
    assert_eq!(chunks[0].content, "Hello world.");
}

#[test]
fn recursive_keeps_paragraphs_whole_when_they_fit() {
    let para =
        |n: usize| format!("Paragraph {n} says something. It has two sentences of text in it.");
    let text: Vec<String> = (0..6).map(para).collect();
    let text = text.join("\n\n");
    let chunks = check(&text, &opts(Strategy::Recursive, 150, 0));
    for c in &chunks {
        assert!(
            c.content.starts_with("Paragraph") && c.content.ends_with("in it."),
            "{:?}",
            c.content
        );
    }
    assert_eq!(chunks.len(), 3, "two ~66-char paragraphs fit in 150");
}

#[test]
fn sentence_strategy_ends_on_sentence_ends() {
    let text = "One short sentence. Another one follows here! Is this the third? Yes it is, e.g. a fourth. Fifth.";
    let chunks = check(text, &opts(Strategy::Sentence, 50, 0));
    for c in &chunks {
        assert!(c.content.ends_with(['.', '!', '?']), "{:?}", c.content);
    }
    assert!(
        chunks.iter().any(|c| c.content.contains("e.g. a fourth")),
        "no split after an abbreviation"
    );
}

#[test]
fn consecutive_chunks_really_overlap() {
    let text = prose(42, 600).replace('\n', " ");
    for strategy in [Strategy::Recursive, Strategy::Sentence, Strategy::Fixed] {
        let chunks = check(&text, &opts(strategy, 200, 50));
        let overlapping = chunks.windows(2).filter(|w| w[1].start < w[0].end).count();
        assert!(
            overlapping * 10 >= (chunks.len() - 1) * 8,
            "{strategy:?}: {overlapping} of {}",
            chunks.len()
        );
    }
}

#[test]
fn fixed_cuts_exact_windows() {
    let text: String = ('a'..='z').cycle().take(100).collect();
    let chunks = check(&text, &opts(Strategy::Fixed, 30, 10));
    let sizes: Vec<usize> = chunks.iter().map(|c| c.char_count).collect();
    assert_eq!(sizes, [30, 30, 30, 30, 20]);
    assert_eq!(chunks[1].start, 20);
}

#[test]
fn markdown_starts_sections_at_headings_and_records_them() {
    let text = "# Guide\nIntro text, long enough.\n\n## Install\nRun the installer and wait a bit.\n\n```\n# a comment, not a heading\n```\n\n## Use\nCall the API.";
    let chunks = check(text, &opts(Strategy::Markdown, 50, 0));
    let contents: Vec<&str> = chunks.iter().map(|c| c.content.as_str()).collect();
    let headings: Vec<Option<&str>> = chunks.iter().map(|c| c.heading.as_deref()).collect();
    assert_eq!(chunks[0].heading.as_deref(), Some("Guide"));
    assert!(chunks.iter().any(|c| c.content.starts_with("## Install") && c.heading.as_deref() == Some("Install")));
    assert!(
        chunks
            .iter()
            .any(|c| c.content.starts_with("## Use") && c.heading.as_deref() == Some("Use"))
    );
    assert!(!headings.contains(&Some("a comment, not a heading")));
    assert_eq!(
        contents[1], "## Install\nRun the installer and wait a bit.",
        "{contents:?}"
    );
}

#[test]
fn cjk_text_splits_on_full_stops() {
    let text = "今日は晴れです。明日は雨が降るでしょう。週末は出かけます。";
    let chunks = check(text, &opts(Strategy::Sentence, 12, 0));
    assert!(
        chunks.iter().all(|c| c.content.ends_with('。')),
        "{chunks:?}"
    );
}

#[test]
fn options_are_validated() {
    assert_eq!(
        ChunkOptions::new(Strategy::Fixed, 0, None),
        Err(ChunkError::Size { size: 0 })
    );
    assert_eq!(
        ChunkOptions::new(Strategy::Fixed, 10, Some(10)),
        Err(ChunkError::Overlap {
            overlap: 10,
            size: 10
        })
    );
    assert_eq!(
        ChunkOptions::new(Strategy::Fixed, 10, None)
            .unwrap()
            .overlap,
        5
    );
    assert_eq!(
        ChunkOptions::new(Strategy::Fixed, 1, None).unwrap().overlap,
        0
    );
}

#[test]
fn chunk_count_is_bounded() {
    let text = "x".repeat(MAX_CHUNKS + 1);
    let err = chunk_text(&text, &opts(Strategy::Fixed, 1, 0), u64::MAX).unwrap_err();
    assert_eq!(err, ChunkError::TooManyChunks { max: MAX_CHUNKS });
}

/// 100 KB of prose-like text.
fn hundred_kb() -> String {
    "lorem ipsum ".repeat(100_000 / 12 + 1)
}

#[test]
fn total_text_is_bounded_not_only_the_chunk_count() {
    // Overlap repeats text: 100 KB cut into 50,000-character windows one character apart
    // would be about 50,000 chunks of 50 KB — 2.5 GB from a 100 KB input.
    let text = hundred_kb();
    let bomb = opts(Strategy::Fixed, 50_000, 49_999);
    let err = chunk_text(&text, &bomb, 64 << 20).unwrap_err();
    assert_eq!(err, ChunkError::TooLarge { max: 64 << 20 });
    assert!(err.to_string().contains("smaller overlap"), "{err}");
    // The bound is on the sum of the chunks' text, exactly.
    let o = opts(Strategy::Fixed, 10, 0);
    let chunks = chunk_text("abcdefghijklmnopqrst", &o, 20).unwrap();
    assert_eq!(chunks.len(), 2);
    assert_eq!(
        chunk_text("abcdefghijklmnopqrst", &o, 19).unwrap_err(),
        ChunkError::TooLarge { max: 19 }
    );
}

#[tokio::test]
async fn the_tool_refuses_output_past_its_budget_as_a_limit() {
    let inputs =
        json!({"text": hundred_kb(), "strategy": "fixed", "size": 50_000, "overlap": 49_999});
    let scope = Context::new();
    let defaults = json!({});
    let limits = vai_workflow::Limits {
        step_output_bytes: 1 << 20,
        ..vai_workflow::Limits::DEFAULT
    };
    let call = ToolCall::standalone("c", inputs.as_object().unwrap().clone(), &defaults, &scope)
        .with_limits(limits);
    let err = ChunkTool.run(call).await.unwrap_err();
    assert!(matches!(err, ToolError::Limit(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "output.chunks: the step's output would be larger than 1 MiB (limits.stepOutputBytes in .vai.json) [LIMIT_EXCEEDED]"
    );
    // The same text with little overlap fits: about 100 KB of chunks.
    let inputs = json!({"text": hundred_kb(), "strategy": "fixed", "size": 50_000, "overlap": 100});
    let call = ToolCall::standalone("c", inputs.as_object().unwrap().clone(), &defaults, &scope)
        .with_limits(limits);
    let out = ChunkTool.run(call).await.unwrap().output;
    assert_eq!(out["totalChunks"], 3);
}

#[tokio::test]
async fn tool_output_has_the_reference_fields() {
    let out = run(json!({"text": "First paragraph here.\n\nSecond one.", "size": 25, "overlap": 0, "source": "doc.md"}))
        .await
        .unwrap();
    assert_eq!(
        out,
        json!({
            "chunks": [
                {"index": 0, "content": "First paragraph here.", "charCount": 21, "source": "doc.md", "metadata": {"strategy": "recursive"}},
                {"index": 1, "content": "Second one.", "charCount": 11, "source": "doc.md", "metadata": {"strategy": "recursive"}}
            ],
            "totalChunks": 2,
            "strategy": "recursive",
            "avgChunkSize": 16
        })
    );
    let out = run(json!({"text": "# T\nbody", "strategy": "markdown"}))
        .await
        .unwrap();
    assert_eq!(
        out["chunks"][0]["metadata"],
        json!({"strategy": "markdown", "heading": "T"})
    );
    assert!(out["chunks"][0].get("source").is_none());
}

#[tokio::test]
async fn tool_accepts_empty_text_and_rejects_bad_settings() {
    let out = run(json!({"text": ""})).await.unwrap();
    assert_eq!(
        out,
        json!({"chunks": [], "totalChunks": 0, "strategy": "recursive", "avgChunkSize": 0})
    );
    let err = run(json!({"text": "abc", "size": 10, "overlap": 10}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("\"overlap\""), "{err}");
    let err = run(json!({"text": "abc", "strategy": "semantic"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("must be one of"), "{err}");
    let err = run(json!({})).await.unwrap_err();
    assert!(err.to_string().contains("\"text\" is required"), "{err}");
    let out = run(json!({"text": "abc", "size": "20", "strategy": "Fixed"}))
        .await
        .unwrap();
    assert_eq!(out["strategy"], "fixed");
}
