//! HTML to readable text for `extract: "text"`: drops scripts, styles and comments, turns
//! block elements into paragraph and line breaks, decodes entities and collapses whitespace.

/// Elements whose content is never text a reader sees.
const SKIPPED: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "iframe", "object",
];

/// Elements that stand on their own: a paragraph break around them.
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "nav",
    "aside",
    "blockquote",
    "pre",
    "table",
    "ul",
    "ol",
    "dl",
    "figure",
    "form",
    "hr",
    "title",
    "body",
];

/// Elements that start a new line.
const LINES: &[&str] = &["br", "li", "tr", "dt", "dd", "figcaption", "caption"];

/// Structural breaks are written as `\n`; whitespace from the source as spaces, so the final
/// pass can tell them apart.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        push_text(&mut out, &rest[..lt]);
        let src = &rest[lt..];
        if let Some(comment) = src.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |i| &comment[i + 3..]);
            continue;
        }
        let Some(tag) = Tag::parse(src) else {
            out.push('<');
            rest = &src[1..];
            continue;
        };
        rest = &src[tag.len..];
        let name = tag.name.as_str();
        if !tag.closing && !tag.self_closing && SKIPPED.contains(&name) {
            rest = skip_element(rest, name);
            out.push(' ');
        } else if BLOCKS.contains(&name) {
            out.push_str("\n\n");
        } else if LINES.contains(&name) && !tag.closing {
            out.push('\n');
        } else if matches!(name, "td" | "th") {
            out.push(' ');
        }
    }
    push_text(&mut out, rest);
    collapse(&out)
}

struct Tag {
    /// Lower-case element name; empty for `<!doctype …>` and `<?…?>`.
    name: String,
    closing: bool,
    self_closing: bool,
    /// Bytes from `<` through `>`.
    len: usize,
}

impl Tag {
    /// A tag at the start of `src` (which starts with `<`), or `None` when the `<` is text.
    fn parse(src: &str) -> Option<Tag> {
        let body = &src[1..];
        let (closing, body) = match body.strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let declaration = body.starts_with(['!', '?']);
        if !declaration && !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
        let name_len = body
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .unwrap_or(body.len());
        let name = if declaration {
            String::new()
        } else {
            body[..name_len].to_ascii_lowercase()
        };
        // Find the closing `>`, skipping quoted attribute values.
        let mut quote = None;
        let mut end = None;
        for (i, c) in src.char_indices().skip(1) {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') if !declaration => quote = Some(c),
                (None, '>') => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let len = end.map_or(src.len(), |i| i + 1);
        let self_closing = end.is_some_and(|i| src[..i].ends_with('/'));
        Some(Tag {
            name,
            closing,
            self_closing,
            len,
        })
    }
}

/// The text after the element `name` closes (`</name …>`), or "" when it never does.
fn skip_element<'a>(rest: &'a str, name: &str) -> &'a str {
    let needle = format!("</{name}");
    let Some(at) = find_ignore_case(rest, &needle) else {
        return "";
    };
    let after = &rest[at..];
    after.find('>').map_or("", |i| &after[i + 1..])
}

fn find_ignore_case(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    (0..h.len().saturating_sub(n.len() - 1)).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Append source text: entities decoded, every whitespace character written as a space.
fn push_text(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        push_spaced(out, &rest[..amp]);
        let after = &rest[amp + 1..];
        match after
            .find(';')
            .filter(|&i| i <= 10)
            .and_then(|i| decode_entity(&after[..i]).map(|c| (c, i)))
        {
            Some((c, i)) => {
                push_spaced(out, c.encode_utf8(&mut [0; 4]));
                rest = &after[i + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    push_spaced(out, rest);
}

fn push_spaced(out: &mut String, text: &str) {
    out.extend(
        text.chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c }),
    );
}

fn decode_entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "mdash" => '—',
        "ndash" => '–',
        "hellip" => '…',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "bull" => '•',
        "middot" => '·',
        _ => return None,
    })
}

/// Whitespace runs become one space, or a line break, or a paragraph break when the run holds
/// structural breaks; the result is trimmed.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut newlines = 0;
    let mut in_run = false;
    for c in text.chars() {
        if c.is_whitespace() {
            in_run = true;
            newlines += usize::from(c == '\n');
            continue;
        }
        if in_run && !out.is_empty() {
            out.push_str(match newlines {
                0 => " ",
                1 => "\n",
                _ => "\n\n",
            });
        }
        in_run = false;
        newlines = 0;
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::html_to_text;

    #[test]
    fn strips_tags_scripts_styles_and_comments() {
        let html = "<!DOCTYPE html><html><head><title>Page</title><style>p { color: red }</style>\
                    <script type=\"text/javascript\">if (a < b) { alert('</p>') }</script></head>\
                    <body><!-- hidden --><h1 class=\"x\">Hello&nbsp;&amp; welcome</h1>\
                    <p>First   line\n   continues <b>bold</b>text.</p><SCRIPT>x()</SCRIPT>\
                    <ul><li>one</li><li>two</li></ul><p>a &lt; b &#8212; &#x1F980; &bogus; 5 < 6</p></body></html>";
        assert_eq!(
            html_to_text(html),
            "Page\n\nHello & welcome\n\nFirst line continues boldtext.\n\none\ntwo\n\na < b — 🦀 &bogus; 5 < 6"
        );
    }

    #[test]
    fn plain_text_and_odd_markup_survive() {
        assert_eq!(html_to_text("  just   text \n here "), "just text here");
        assert_eq!(html_to_text("<p title='a>b'>x</p><br/>y"), "x\n\ny");
        assert_eq!(html_to_text("<script>never closed"), "");
        assert_eq!(html_to_text("<!-- never closed"), "");
        assert_eq!(html_to_text("<td>a</td><td>b</td>"), "a b");
    }
}
