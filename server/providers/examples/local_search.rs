//! Benchmark of the local store's exact vector search: top-10 over 100,000 random 384-dimension
//! vectors in a temporary store, reporting the median latency of a search as a tool sees it
//! (through the async `VectorStore` API).
//!
//! `cargo run --release -p vai-providers --example local_search [-- <vectors> <dims> <queries>]`

use std::error::Error;
use std::time::{Duration, Instant};
use vai_providers::local::store::LocalStore;
use vai_providers::{Document, Namespace, VectorIndex, VectorQuery, VectorStore, vector_to_json};

/// SplitMix64: reproducible pseudo-random numbers without a dependency.
struct Rng(u64);

impl Rng {
    fn vector(&mut self, dims: usize) -> Vec<f32> {
        (0..dims)
            .map(|_| {
                self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = self.0;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
            })
            .collect()
    }
}

fn arg(n: usize, default: usize) -> Result<usize, Box<dyn Error>> {
    Ok(match std::env::args().nth(n) {
        Some(a) => a.parse()?,
        None => default,
    })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let (n, dims, queries) = (arg(1, 100_000)?, arg(2, 384)?, arg(3, 200)?);
    let dir = std::env::temp_dir().join(format!("vai-local-search-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let result = run(&dir, n, dims, queries).await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn run(
    dir: &std::path::Path,
    n: usize,
    dims: usize,
    queries: usize,
) -> Result<(), Box<dyn Error>> {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    println!("local store: exact top-10 over {n} x {dims}-d vectors, {cores} cores");
    let store = LocalStore::open(&dir.join("store.sqlite3"))?;
    let ns = Namespace::new("bench", "vectors");
    let index = VectorIndex {
        name: "vector_index".into(),
        path: "embedding".into(),
        dimensions: dims,
    };
    store.ensure_vector_index(&ns, &index).await?;

    let mut rng = Rng(42);
    let started = Instant::now();
    let mut next = 0;
    while next < n {
        let batch: Vec<Document> = (next..n.min(next + 5_000))
            .map(|i| {
                let mut doc = Document::new();
                doc.insert("text".into(), format!("document {i}").into());
                doc.insert("i".into(), i.into());
                doc.insert("embedding".into(), vector_to_json(&rng.vector(dims)));
                doc
            })
            .collect();
        next += batch.len();
        store.insert(&ns, batch).await?;
    }
    println!("insert: {:.1} s", started.elapsed().as_secs_f64());

    let search = |vector: Vec<f32>| VectorQuery {
        namespace: ns.clone(),
        index: "vector_index".into(),
        path: "embedding".into(),
        vector,
        limit: 10,
        num_candidates: 100,
        filter: None,
        fields: vec!["text".into()],
    };
    let started = Instant::now();
    store.vector_search(search(rng.vector(dims))).await?;
    println!(
        "first search (loads the cache): {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );

    let mut times = Vec::with_capacity(queries);
    for _ in 0..queries {
        let query = search(rng.vector(dims));
        let started = Instant::now();
        let hits = store.vector_search(query).await?;
        times.push(started.elapsed());
        assert_eq!(hits.len(), 10.min(n));
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "top-10 search over {queries} queries: median {:.2} ms, p95 {:.2} ms, min {:.2} ms",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95)),
        ms(times[0])
    );
    Ok(())
}
