//! Throughput of the local embedding model: load time, then short sentences per second at the
//! embedder's batch size of 32. Run in release:
//!
//! ```text
//! cargo run --release -p vai-providers --example local_embed [-- <count> | <file>]
//! ```
//!
//! Needs the model (`bash scripts/fetch-model.sh`, or VAI_MODEL_DIR).

use std::time::Instant;
use vai_providers::local::embed::{LocalEmbedder, ModelLocation, find_model_dir};
use vai_providers::{EmbedRequest, Embedder, cosine_similarity};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The argument is a sentence count (default 512) or a file with one sentence per line.
    let texts = match std::env::args().nth(1) {
        None => sentences(512),
        Some(arg) => match arg.parse::<usize>() {
            Ok(n) => sentences(n),
            Err(_) => sentences_from(&arg)?,
        },
    };
    let count = texts.len();
    let dir = find_model_dir()?;
    println!("model: {}", dir.display());
    let embedder = LocalEmbedder::new(ModelLocation::Dir(dir));

    let started = Instant::now();
    embedder.load().await?;
    println!("load: {:.3} s", started.elapsed().as_secs_f64());

    let request = |texts: Vec<String>| EmbedRequest {
        texts,
        model: LocalEmbedder::MODEL.into(),
        input_type: None,
        dimensions: None,
    };
    // A sanity check that doubles as the warm-up, so first-call allocations do not count.
    let pair = ["A man is eating food.", "A man is eating a piece of bread."];
    let v = embedder
        .embed(request(pair.iter().map(|s| s.to_string()).collect()))
        .await?
        .embeddings;
    println!(
        "cosine({:?}, {:?}) = {:.3}",
        pair[0],
        pair[1],
        cosine_similarity(&v[0], &v[1])
    );

    let started = Instant::now();
    let response = embedder.embed(request(texts)).await?;
    let secs = started.elapsed().as_secs_f64();
    let tokens = response.usage.input_tokens;
    println!(
        "embedded {count} sentences ({tokens} tokens, {:.1} per sentence) at batch 32 in \
         {secs:.2} s: {:.0} sentences/s, {:.0} tokens/s",
        tokens as f64 / count.max(1) as f64,
        count as f64 / secs,
        tokens as f64 / secs
    );
    if let Some(rss) = resident_memory() {
        println!("resident memory: {rss}");
    }
    Ok(())
}

/// `count` short sentences (5–8 words, ~11 tokens, like queries or titles); up to 512 of them
/// are all different.
fn sentences(count: usize) -> Vec<String> {
    const SUBJECTS: [&str; 8] = [
        "The index",
        "A small team",
        "Our gateway",
        "The nightly job",
        "Each workflow",
        "The search service",
        "A new customer",
        "The model",
    ];
    const VERBS: [&str; 8] = [
        "handles",
        "rejects",
        "retries",
        "summarizes",
        "caches",
        "reranks",
        "logs",
        "ignores",
    ];
    const OBJECTS: [&str; 8] = [
        "slow requests",
        "long documents",
        "billing questions",
        "upstream errors",
        "duplicate chunks",
        "empty queries",
        "old invoices",
        "large uploads",
    ];
    (0..count)
        .map(|i| {
            format!(
                "{} {} {}.",
                SUBJECTS[i % 8],
                VERBS[(i / 8) % 8],
                OBJECTS[(i / 64) % 8]
            )
        })
        .collect()
}

/// One sentence per non-empty line of `path`.
fn sentences_from(path: &str) -> std::io::Result<Vec<String>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// The process's resident set size as Linux reports it.
fn resident_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    Some(line.trim_start_matches("VmRSS:").trim().to_string())
}
