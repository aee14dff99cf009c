//! The splitter: walks the text in windows of `size` characters, ends each chunk at the
//! strongest boundary the window holds (section, paragraph, line, sentence, word, character —
//! ranked per strategy), and starts the next chunk up to `overlap` characters earlier, on a word
//! start where there is one. Positions are byte offsets that always fall on `char` boundaries.

use super::options::{ChunkError, ChunkOptions, MAX_CHUNKS, Strategy};

/// One piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub index: usize,
    /// The text, trimmed of surrounding whitespace; never empty.
    pub content: String,
    /// `content` length in characters.
    pub char_count: usize,
    /// Markdown strategy: the heading of the section where the chunk's new text begins.
    pub heading: Option<String>,
    /// Byte range of `content` in the original text.
    pub start: usize,
    pub end: usize,
}

/// Rank of a plain character boundary: always available.
const CHAR: u8 = 5;
/// Rank of a position inside whitespace: used only when nothing else fits.
const SPACE: u8 = 6;

/// The kinds of boundary found in front of a position.
#[derive(Default, Clone, Copy)]
struct Flags {
    section: bool,
    paragraph: bool,
    line: bool,
    sentence: bool,
    word: bool,
    in_code: bool,
}

/// Lower is stronger. Each strategy orders the boundary kinds it cares about.
fn rank(strategy: Strategy, f: Flags) -> u8 {
    fn take(best: &mut u8, cond: bool, r: u8) {
        if cond && r < *best {
            *best = r;
        }
    }
    let mut best = CHAR;
    match strategy {
        Strategy::Markdown => {
            take(&mut best, f.section, 0);
            // Inside fenced code, blank lines and full stops are not prose structure.
            take(&mut best, f.paragraph, if f.in_code { 2 } else { 1 });
            take(&mut best, f.line, 2);
            take(&mut best, f.sentence, if f.in_code { 4 } else { 3 });
            take(&mut best, f.word, 4);
        }
        Strategy::Recursive => {
            take(&mut best, f.paragraph, 1);
            take(&mut best, f.line, 2);
            take(&mut best, f.sentence, 3);
            take(&mut best, f.word, 4);
        }
        Strategy::Paragraph => {
            take(&mut best, f.paragraph, 1);
            take(&mut best, f.sentence, 2);
            take(&mut best, f.line, 3);
            take(&mut best, f.word, 4);
        }
        Strategy::Sentence => {
            take(&mut best, f.paragraph || f.sentence, 3);
            take(&mut best, f.line || f.word, 4);
        }
        Strategy::Fixed => {}
    }
    best
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…')
}

fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '”' | '’' | '»')
}

fn is_cjk_terminator(c: char) -> bool {
    matches!(c, '。' | '！' | '？')
}

/// Markdown structure: heading positions (at the `#`) with their text, and fenced code ranges.
#[derive(Default)]
pub(super) struct Markdown {
    headings: Vec<(usize, String)>,
    fences: Vec<(usize, usize)>,
}

impl Markdown {
    pub(super) fn scan(text: &str) -> Self {
        let mut md = Markdown::default();
        let mut fence: Option<(usize, &str)> = None;
        let mut pos = 0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start_matches(' ');
            let indent = line.len() - trimmed.len();
            if indent <= 3 {
                let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
                match (fence, marker) {
                    (None, Some(m)) => fence = Some((pos, m)),
                    (Some((start, open)), Some(m)) if m == open => {
                        md.fences.push((start, pos + line.len()));
                        fence = None;
                    }
                    (None, None) => {
                        if let Some(title) = heading_text(trimmed) {
                            md.headings.push((pos + indent, title));
                        }
                    }
                    _ => {}
                }
            }
            pos += line.len();
        }
        if let Some((start, _)) = fence {
            md.fences.push((start, text.len()));
        }
        md
    }

    fn is_heading(&self, pos: usize) -> bool {
        self.headings.binary_search_by_key(&pos, |h| h.0).is_ok()
    }

    fn in_code(&self, pos: usize) -> bool {
        // A boundary right at the opening fence is outside the code.
        let i = self.fences.partition_point(|f| f.0 < pos);
        i > 0 && pos < self.fences[i - 1].1
    }

    /// The text of the last heading at or before `pos`.
    pub(super) fn heading_at(&self, pos: usize) -> Option<&str> {
        let i = self.headings.partition_point(|h| h.0 <= pos);
        (i > 0).then(|| self.headings[i - 1].1.as_str())
    }
}

/// `## Title ##` → "Title"; `None` for a line that is not an ATX heading.
fn heading_text(line: &str) -> Option<String> {
    let hashes = line.len() - line.trim_start_matches('#').len();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = line[hashes..].trim_end();
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    let title = rest.trim_end_matches('#').trim();
    (!title.is_empty()).then(|| title.to_string())
}

/// Where the chunk starting at `start` ends: the strongest boundary after `after` within `size`
/// characters of `start` (the farthest one among equals), or `None` when the rest of the text fits.
fn next_end(
    text: &str,
    start: usize,
    after: usize,
    opts: &ChunkOptions,
    md: &Markdown,
) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    // The whitespace run in front of the current character and the two characters before it.
    let (mut run_len, mut newlines) = (0usize, 0usize);
    let (mut prev, mut prev2): (Option<char>, Option<char>) = (None, None);
    for (count, (offset, c)) in text[start..].char_indices().enumerate() {
        let pos = start + offset;
        if pos > after {
            let r = if opts.strategy == Strategy::Fixed {
                CHAR
            } else if c.is_whitespace() {
                SPACE
            } else {
                let ends_sentence = prev.is_some_and(|p| {
                    is_terminator(p) || (is_closer(p) && prev2.is_some_and(is_terminator))
                });
                let flags = Flags {
                    section: newlines > 0 && md.is_heading(pos),
                    paragraph: newlines >= 2,
                    line: newlines == 1,
                    sentence: (run_len > 0 && ends_sentence && !c.is_lowercase())
                        || (run_len == 0 && prev.is_some_and(is_cjk_terminator)),
                    word: run_len > 0,
                    in_code: false,
                };
                let flags = Flags {
                    in_code: (flags.paragraph || flags.sentence) && md.in_code(pos),
                    ..flags
                };
                rank(opts.strategy, flags)
            };
            if best.is_none_or(|(b, _)| r <= b) {
                best = Some((r, pos));
            }
        }
        if count == opts.size {
            // `after` always lies inside the window, so `best` is set; `pos` is a safe fallback.
            return Some(best.map_or(pos, |(_, p)| p));
        }
        if c.is_whitespace() {
            run_len += 1;
            if c == '\n' {
                newlines += 1;
            }
        } else {
            prev2 = if run_len == 0 { prev } else { None };
            prev = Some(c);
            run_len = 0;
            newlines = 0;
        }
    }
    None
}

/// Where the chunk after `[start, end)` begins: up to `overlap` characters before `end` (but
/// after `start`), on the earliest word start in that stretch when `word_aligned`.
fn overlap_start(
    text: &str,
    start: usize,
    end: usize,
    overlap: usize,
    word_aligned: bool,
) -> usize {
    if overlap == 0 {
        return end;
    }
    let back = text[..end]
        .char_indices()
        .rev()
        .take(overlap)
        .last()
        .map_or(end, |(i, _)| i);
    let after_start = start + text[start..].chars().next().map_or(0, char::len_utf8);
    let back = back.max(after_start);
    if back >= end || !word_aligned {
        return back.min(end);
    }
    let mut before = text[..back].chars().next_back();
    for (offset, c) in text[back..end].char_indices() {
        if !c.is_whitespace() && before.is_some_and(char::is_whitespace) {
            return back + offset;
        }
        before = Some(c);
    }
    back
}

/// Split `text`; the chunks' contents may take at most `max_bytes` together (overlap repeats
/// text, so they can be far larger than the text), checked before each one is allocated.
pub(super) fn split(
    text: &str,
    opts: &ChunkOptions,
    max_bytes: u64,
) -> Result<Vec<Chunk>, ChunkError> {
    let md = if opts.strategy == Strategy::Markdown {
        Markdown::scan(text)
    } else {
        Markdown::default()
    };
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut bytes = 0u64;
    let (mut start, mut fresh) = (0, 0);
    while !text[fresh..].chars().all(char::is_whitespace) {
        let end = next_end(text, start, fresh, opts, &md).unwrap_or(text.len());
        let raw = &text[start..end];
        let content = raw.trim();
        // A window whose new part is blank would only repeat the overlap.
        let adds_text = !text[fresh..end].chars().all(char::is_whitespace);
        if adds_text && !content.is_empty() {
            if chunks.len() == MAX_CHUNKS {
                return Err(ChunkError::TooManyChunks { max: MAX_CHUNKS });
            }
            bytes += content.len() as u64;
            if bytes > max_bytes {
                return Err(ChunkError::TooLarge { max: max_bytes });
            }
            let lead = raw.len() - raw.trim_start().len();
            chunks.push(Chunk {
                index: chunks.len(),
                content: content.to_string(),
                char_count: content.chars().count(),
                heading: md.heading_at(fresh).map(str::to_string),
                start: start + lead,
                end: start + lead + content.len(),
            });
        }
        if end >= text.len() {
            break;
        }
        start = overlap_start(
            text,
            start,
            end,
            opts.overlap,
            opts.strategy != Strategy::Fixed,
        );
        fresh = end;
    }
    Ok(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_and_fences_are_found() {
        let text = "# Title\nintro\n```\n# not a heading\n```\n## Part two ##\nbody\n#nospace\n";
        let md = Markdown::scan(text);
        let titles: Vec<&str> = md.headings.iter().map(|h| h.1.as_str()).collect();
        assert_eq!(titles, ["Title", "Part two"]);
        assert!(md.in_code(text.find("# not").unwrap()));
        assert!(!md.in_code(text.find("body").unwrap()));
        assert_eq!(md.heading_at(text.find("body").unwrap()), Some("Part two"));
        assert_eq!(md.heading_at(0), Some("Title"));
    }

    #[test]
    fn overlap_starts_on_a_word() {
        let text = "alpha beta gamma delta";
        let end = text.find("delta").unwrap();
        // 8 characters back from "delta" lands inside "beta"; the next word start is "gamma".
        assert_eq!(
            overlap_start(text, 0, end, 8, true),
            text.find("gamma").unwrap()
        );
        assert_eq!(overlap_start(text, 0, end, 8, false), end - 8);
        assert_eq!(overlap_start(text, 0, end, 0, true), end);
    }
}
