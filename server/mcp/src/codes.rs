//! The catalogue of `error_code`s, so docs/mcp.md lists each with its category and meaning.

/// Every `error_code` a tool call may return: (code, category, retryable, when). docs/mcp.md
/// lists them; a test checks every code the crate raises is here.
pub(crate) const CODES: [(&str, &str, bool, &str); 23] = [
    (
        "INVALID_ARGUMENTS",
        "validation",
        false,
        "the arguments do not match the tool's input schema (each field in `violations`)",
    ),
    (
        "INVALID_INPUTS",
        "validation",
        false,
        "a workflow's inputs are missing or of the wrong type",
    ),
    (
        "INVALID_WORKFLOW_NAME",
        "validation",
        false,
        "a workflow named with a path, or a file name that is not a plain name",
    ),
    (
        "WORKFLOW_VALIDATION_FAILED",
        "validation",
        false,
        "the workflow has errors (each in `violations`, with its step and field)",
    ),
    (
        "WORKFLOW_TOO_LARGE",
        "validation",
        false,
        "a document above the 5 MiB workflow file limit, refused before it is parsed",
    ),
    (
        "WORKFLOW_NOT_FOUND",
        "not_found",
        false,
        "no workflow by that id or name",
    ),
    (
        "RUN_NOT_FOUND",
        "not_found",
        false,
        "no run by that id (only the most recent finished runs are kept)",
    ),
    (
        "WORKFLOW_EXISTS",
        "conflict",
        false,
        "a save would replace an existing file without its version",
    ),
    (
        "VERSION_CONFLICT",
        "conflict",
        false,
        "the file changed since the version given was read",
    ),
    (
        "READ_ONLY_WORKFLOW",
        "conflict",
        false,
        "built-ins and examples cannot be changed; save a copy",
    ),
    (
        "WORKFLOW_UNREADABLE",
        "execution",
        false,
        "the workflow file cannot be read",
    ),
    (
        "NO_WORKFLOW_DIRECTORY",
        "execution",
        false,
        "the server has no directory to save into",
    ),
    (
        "WRITE_FAILED",
        "execution",
        true,
        "the file could not be written (permissions, space)",
    ),
    (
        "TOO_MANY_RUNS",
        "execution",
        true,
        "the run manager is at its limit of runs going at once",
    ),
    (
        "TOO_MANY_CALLS",
        "execution",
        true,
        "as many vai tool calls as allowed are already running",
    ),
    (
        "RUN_FAILED",
        "execution",
        false,
        "a step failed (`context.step_id`; each failed step in `violations`)",
    ),
    ("RUN_CANCELLED", "execution", false, "the run was cancelled"),
    (
        "CANCELLED",
        "execution",
        false,
        "the vai tool call was cancelled",
    ),
    (
        "NOT_CONFIGURED",
        "execution",
        false,
        "a provider the tool needs is not configured",
    ),
    (
        "PROVIDER_UNAVAILABLE",
        "execution",
        true,
        "a provider failed transiently (rate limit, timeout, 5xx, network)",
    ),
    (
        "LIMIT_EXCEEDED",
        "execution",
        false,
        "a value the tool was building ran into a limit",
    ),
    (
        "TOOL_FAILED",
        "execution",
        false,
        "the tool failed; the message says why",
    ),
    ("INTERNAL", "internal", false, "a bug in vai"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code a `Failure::new` in this crate raises is listed in `CODES` (and so in
    /// docs/mcp.md), and every listed code is raised somewhere.
    #[test]
    fn every_code_raised_is_listed() {
        fn sources(dir: &std::path::Path, out: &mut String) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let mut text = String::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut text,
        );
        let mut raised = std::collections::BTreeSet::new();
        for part in text.split("Failure::new(").skip(1) {
            let code = part.trim_start().trim_start_matches('"');
            let code: String = code
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .collect();
            if !code.is_empty() {
                raised.insert(code);
            }
        }
        raised.insert("INVALID_ARGUMENTS".into());
        raised.insert("WORKFLOW_VALIDATION_FAILED".into());
        raised.insert("INTERNAL".into());
        let listed: std::collections::BTreeSet<String> =
            CODES.iter().map(|(c, ..)| c.to_string()).collect();
        assert_eq!(raised, listed);
    }
}
