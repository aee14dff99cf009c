//! `vai bench llm`: how fast the local LLM (SmolLM2-135M) loads and answers on this machine — the
//! model load, the prompt tokens read per second and the time to the first token of an answer to
//! a ~1,000-token RAG prompt (whole with the default context budget), the tokens generated per
//! second, the peak memory, and the SIMD kernels chosen. Figures, not assertions: they are
//! recorded in docs/benchmarks.md.

use crate::exit::EXIT_OK;
use clap::Args;
use serde_json::json;
use std::time::{Duration, Instant};
use vai_providers::llm::StreamEvent;
use vai_providers::local::llm::LocalLlm;
use vai_providers::{CompletionRequest, Llm, Message};

/// Measure the local LLM (whatever LLM is configured): load time, prefill tokens/s and time to
/// first token for a ~1,000-token RAG prompt (cut to the context budget first, as `generate`
/// would; the default keeps it whole), decode tokens/s, peak memory, the kernels in use.
#[derive(Debug, Args)]
pub(super) struct LlmArgs {
    /// Answers generated (the median of each figure is reported).
    #[arg(long, default_value_t = 3)]
    pub iterations: usize,
    /// Most tokens per answer.
    #[arg(long, default_value_t = 128)]
    pub max_tokens: u32,
    /// Prompt tokens kept (default: the model's default budget).
    #[arg(long)]
    pub context_budget: Option<usize>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Passages in the shape `generate` gives its context: numbered sources.
const PASSAGES: [&str; 4] = [
    "API keys are created in the dashboard under Settings → API keys. Each key belongs to one \
     project and carries that project's rate limits. Send it in the Authorization header as a \
     bearer token; requests without a valid key fail with status 401 and a JSON error body.",
    "Rate limits are counted per key and per minute. The free plan allows 3 requests and 10,000 \
     tokens a minute; paid plans raise both. A request over the limit fails with status 429 and a \
     Retry-After header saying how many seconds to wait before trying again.",
    "Embeddings turn text into vectors so that similar meanings sit close together. A vector \
     search compares the query's vector with the stored ones and returns the nearest documents; a \
     reranker then reads each candidate with the query and orders them by relevance.",
    "Retrieval-augmented generation grounds a language model on documents found for the \
     question: retrieve, rerank, put the best passages in the prompt, and ask the model to answer \
     from them and cite them, so answers stay current and can be checked.",
];

const QUESTION: &str = "How do I authenticate my requests, and what happens when I send too \
     many of them?";

pub(super) async fn run(args: LlmArgs) -> anyhow::Result<u8> {
    let mut llm = LocalLlm::discover().map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(budget) = args.context_budget {
        llm = llm.with_context_budget(budget);
    }
    let t = Instant::now();
    llm.load().await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let load = t.elapsed();

    // Sources until the prompt holds about 1,000 tokens.
    let mut user = format!("{QUESTION}\n\nContext:\n");
    let mut n = 0;
    while llm
        .count_tokens(&user)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
        < 1000
    {
        let passage = PASSAGES[n % PASSAGES.len()];
        user.push_str(&format!(
            "[{}] (source: doc-{}.md) {passage}\n\n",
            n + 1,
            n + 1
        ));
        n += 1;
    }
    let prompt_tokens = llm
        .count_tokens(&user)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;

    let (mut firsts, mut prefills, mut rates) = (Vec::new(), Vec::new(), Vec::new());
    let (mut kept, mut generated, mut answer) = (0, 0, String::new());
    for _ in 0..args.iterations.max(1) {
        let request = CompletionRequest {
            system: Some(
                "Answer from the numbered sources only and cite them like [1].".to_string(),
            ),
            messages: vec![Message::user(user.clone())],
            temperature: Some(0.0),
            max_tokens: Some(args.max_tokens),
            ..CompletionRequest::default()
        };
        let start = Instant::now();
        let mut first = None;
        let completion = llm
            .stream(request, &mut |event| {
                if matches!(event, StreamEvent::Text(_)) && first.is_none() {
                    first = Some(start.elapsed());
                }
            })
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let total = start.elapsed();
        let first = first.unwrap_or(total);
        firsts.push(first);
        // Prefill as the user sees it: the prompt read, then the first token chosen.
        prefills.push(completion.usage.input_tokens as f64 / first.as_secs_f64().max(1e-9));
        let after_first = completion.usage.output_tokens.saturating_sub(1) as f64;
        rates.push(after_first / (total - first).as_secs_f64().max(1e-9));
        kept = completion.usage.input_tokens;
        generated = completion.usage.output_tokens;
        answer = completion.text;
    }
    firsts.sort();
    prefills.sort_by(f64::total_cmp);
    rates.sort_by(f64::total_cmp);
    let first = firsts[firsts.len() / 2];
    let prefill = prefills[prefills.len() / 2];
    let rate = rates[rates.len() / 2];
    let kernel = llm.kernel().await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let peak = peak_rss_mib();

    let figures = json!({
        "model": LocalLlm::LABEL,
        "load_ms": ms(load),
        "prompt_tokens": prompt_tokens,
        "prompt_tokens_kept": kept,
        "context_budget": llm.context_budget(),
        "first_token_ms": ms(first),
        "prefill_tokens_per_second": prefill,
        // Decoding, after the first token.
        "tokens_per_second": rate,
        "tokens_generated": generated,
        "iterations": args.iterations.max(1),
        "peak_rss_mib": peak,
        "kernel": kernel,
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
    } else {
        println!("{}", LocalLlm::LABEL);
        let line = |what: &str, figure: String| println!("{what:<52}{figure:>14}");
        line("model load", format!("{:.0} ms", ms(load)));
        line(
            &format!("prefill ({kept} prompt tokens)"),
            format!("{prefill:.1} tokens/s"),
        );
        line(
            &format!("first token, {prompt_tokens}-token RAG prompt ({kept} kept)"),
            format!("{:.0} ms", ms(first)),
        );
        line(
            &format!("decode ({generated} tokens)"),
            format!("{rate:.1} tokens/s"),
        );
        line(
            "peak memory (VmHWM)",
            peak.map_or("not measured".into(), |p| format!("{p:.0} MiB")),
        );
        line("kernels", kernel.to_string());
        println!(
            "(medians of {} answers; context budget {} tokens)",
            args.iterations.max(1),
            llm.context_budget()
        );
        eprintln!("answer: {}", answer.trim());
    }
    Ok(EXIT_OK)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The process's peak resident memory (VmHWM in /proc/self/status), in MiB; `None` off Linux.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}
