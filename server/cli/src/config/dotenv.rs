//! A `.env` file reader: `KEY=value` lines, `#` comments, an optional `export ` prefix, and
//! single- or double-quoted values.

use std::collections::HashMap;

/// Parse `.env` text; malformed lines are skipped (a `.env` is often shared with other tools).
pub(super) fn parse(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let value = value.trim();
        let value = match value.chars().next() {
            Some(q @ ('"' | '\'')) => match value[1..].find(q) {
                Some(end) => {
                    let inner = &value[1..=end];
                    if q == '"' {
                        inner.replace("\\n", "\n").replace("\\\"", "\"")
                    } else {
                        inner.to_string()
                    }
                }
                None => value.to_string(),
            },
            _ => value.split(" #").next().unwrap_or("").trim().to_string(),
        };
        out.insert(key.to_string(), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_usual_forms() {
        let env = parse(
            "# keys\nVOYAGE_API_KEY=pa-123\nexport MONGODB_URI=\"mongodb://x\"\nA='b c' \nB=plain # note\nnot a line\n=x\n",
        );
        assert_eq!(env["VOYAGE_API_KEY"], "pa-123");
        assert_eq!(env["MONGODB_URI"], "mongodb://x");
        assert_eq!(env["A"], "b c");
        assert_eq!(env["B"], "plain");
        assert_eq!(env.len(), 4);
    }
}
