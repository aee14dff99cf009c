//! Sentence-level scoring: a candidate cut into sentences, each embedded, so a long document is
//! also judged by the one sentence that answers.

use crate::{EmbedInputType, EmbedRequest, Embedder, ProviderError, cosine_similarity};

/// The embeddings of each document's sentences ([`split`]), all in one request.
pub(super) async fn vectors(
    embedder: &dyn Embedder,
    model: &str,
    documents: Vec<String>,
) -> Result<(Vec<Vec<Vec<f32>>>, u64), ProviderError> {
    let split: Vec<Vec<&str>> = documents.iter().map(|d| split(d)).collect();
    let texts: Vec<String> = split.iter().flatten().map(|s| s.to_string()).collect();
    let count = texts.len();
    let embedded = embedder
        .embed(EmbedRequest {
            texts,
            model: model.to_string(),
            input_type: Some(EmbedInputType::Document),
            dimensions: None,
        })
        .await?;
    if embedded.embeddings.len() != count {
        return Err(ProviderError::other(
            "local",
            format!(
                "rerank: the {} embedder returned the wrong number of vectors",
                embedder.name()
            ),
        ));
    }
    let mut rest = embedded.embeddings.into_iter();
    let vectors = split
        .iter()
        .map(|s| rest.by_ref().take(s.len()).collect())
        .collect();
    Ok((vectors, embedded.usage.input_tokens))
}

/// The best cosine between `query` and one of `sentences`, negatives counted as 0.
pub(super) fn best(query: &[f32], sentences: &[Vec<f32>]) -> f64 {
    sentences
        .iter()
        .map(|s| cosine_similarity(query, s))
        .fold(0.0, f64::max)
}

/// The sentences of `text`: each non-empty line on its own (a Markdown heading is one, without
/// its `#`s), and within a line, a cut after `.`, `?` or `!` followed by a space and a capital
/// letter or a digit. Lowercase after the stop ("e.g. the") and stops inside a token
/// ("v1=5f2b", "ledgerly.Client") do not cut.
pub(super) fn split(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('#').trim();
        let mut start = 0;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if !matches!(c, '.' | '?' | '!') {
                continue;
            }
            let rest = &line[i + c.len_utf8()..];
            let Some(after) = rest.strip_prefix(' ') else {
                continue;
            };
            if after
                .chars()
                .next()
                .is_some_and(|n| n.is_uppercase() || n.is_ascii_digit())
            {
                out.push(line[start..=i].trim());
                start = i + 2;
                chars.next();
            }
        }
        out.push(line[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_sentence_stops_cut_but_stops_inside_words_do_not() {
        let text = "# Verifying Webhook Signatures\n\nEach request carries a header such as \
                    t=1718000000,v1=5f2b.... The t part is the time. Is it signed? Yes! \
                    Use ledgerly.Client(api_key), e.g. in Python.\n\n1999 means $19.99. 30 days.";
        assert_eq!(
            split(text),
            [
                "Verifying Webhook Signatures",
                "Each request carries a header such as t=1718000000,v1=5f2b....",
                "The t part is the time.",
                "Is it signed?",
                "Yes!",
                "Use ledgerly.Client(api_key), e.g. in Python.",
                "1999 means $19.99.",
                "30 days.",
            ]
        );
        assert!(split("  \n\n ").is_empty());
    }
}
