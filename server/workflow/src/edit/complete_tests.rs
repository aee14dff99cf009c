//! Completions over the document with every kind of reference.

use super::tests::{every_kind, registry};
use super::*;
use serde_json::Value;

fn complete_at(
    doc: &Value,
    step: Option<&str>,
    field: &str,
    text: &str,
    cursor: usize,
) -> Completions {
    complete(
        doc,
        &registry(),
        CompleteAt {
            step_id: step,
            field,
            text,
            cursor,
        },
    )
}

fn labels(c: &Completions) -> Vec<&str> {
    c.items.iter().map(|i| i.label.as_str()).collect()
}

#[test]
fn after_opening_braces_the_roots_in_scope() {
    let doc = every_kind();
    let c = complete_at(&doc, Some("kept"), "inputs.array", "{{ ", 3);
    assert_eq!((c.from, c.to), (3, 3));
    let l = labels(&c);
    for want in ["inputs", "defaults", "search", "search_2", "each", "gate"] {
        assert!(l.contains(&want), "{want} in {l:?}");
    }
    assert!(!l.contains(&"kept"), "not itself: {l:?}");
    assert!(!l.contains(&"item"), "no locals outside forEach: {l:?}");
    assert!(
        !l.contains(&"true"),
        "keywords only once a word is begun: {l:?}"
    );
    let c = complete_at(&doc, Some("kept"), "inputs.array", "{{ a || tr", 10);
    assert_eq!(labels(&c), ["true"]);
    assert_eq!(c.items[0].kind, CompletionKind::Keyword);
    // Downstream steps would make a cycle.
    let c = complete_at(&doc, Some("search"), "inputs.query", "{{ ", 3);
    assert!(!labels(&c).contains(&"each"), "{:?}", labels(&c));
    assert!(!labels(&c).contains(&"gate"), "{:?}", labels(&c));
    // A forEach step sees item and index.
    let c = complete_at(&doc, Some("each"), "inputs.t", "{{ it", 5);
    assert_eq!(labels(&c), ["item"]);
    assert_eq!(c.items[0].kind, CompletionKind::Local);
    assert_eq!((c.from, c.to), (3, 5));
}

#[test]
fn member_completions_from_declarations() {
    let doc = every_kind();
    let c = complete_at(&doc, Some("each"), "inputs.t", "{{ inputs. }}", 10);
    assert_eq!(labels(&c), ["q", "min"]);
    assert_eq!(c.items[0].detail.as_deref(), Some("string — the question"));
    assert_eq!(c.items[0].kind, CompletionKind::Input);

    let c = complete_at(
        &doc,
        Some("gate"),
        "inputs.condition",
        "search.output.res",
        17,
    );
    assert_eq!(labels(&c), ["results", "resultCount"]);
    assert_eq!((c.from, c.to), (14, 17));
    assert_eq!(c.items[0].detail.as_deref(), Some("documents found"));

    // The cursor inside a word: the whole word is replaced.
    let text = "{{ search.output.resX }}";
    let c = complete_at(&doc, Some("kept"), "inputs.array", text, 19);
    assert_eq!((c.from, c.to), (17, 21));

    let c = complete_at(&doc, None, "output.answer", "{{ defaults.", 12);
    assert_eq!(labels(&c), ["db"]);
    let c = complete_at(&doc, None, "output.answer", "{{ each.output.", 15);
    assert_eq!(labels(&c), ["results", "count"], "a forEach step's output");
    let c = complete_at(&doc, None, "output.answer", "{{ search.", 10);
    assert_eq!(labels(&c), ["output"]);
}

#[test]
fn in_a_condition_everywhere_and_with_locals() {
    let doc = every_kind();
    let c = complete_at(
        &doc,
        Some("kept"),
        "inputs.condition",
        "item.score > inp",
        16,
    );
    assert_eq!(labels(&c), ["inputs"]);
    assert_eq!((c.from, c.to), (13, 16));
    let c = complete_at(&doc, Some("kept"), "inputs.condition", "it", 2);
    assert_eq!(labels(&c), ["item"]);
    let c = complete_at(&doc, Some("kept"), "inputs.condition", "item.", 5);
    assert!(
        c.items.is_empty(),
        "nothing is known about a local's fields"
    );
    let c = complete_at(&doc, Some("lp"), "inputs.step.inputs.text", "{{ d", 4);
    assert_eq!(labels(&c), ["doc", "defaults"]);
}

#[test]
fn nothing_outside_templates_in_strings_or_after_an_operand() {
    let doc = every_kind();
    for (text, cursor) in [
        ("plain text", 5),
        ("{{ a }} after", 10),
        ("{{ 'in a str", 10),
        ("{{ search ", 10),
    ] {
        let c = complete_at(&doc, Some("kept"), "inputs.array", text, cursor);
        assert!(c.items.is_empty(), "{text}: {:?}", labels(&c));
        assert_eq!((c.from, c.to), (cursor, cursor), "{text}");
    }
    let c = complete_at(&doc, Some("gate"), "inputs.then[0]", "ea", 2);
    assert!(c.items.is_empty(), "ids are not templates");
}

#[test]
fn offsets_are_utf16() {
    let doc = every_kind();
    // "😀 " is three UTF-16 units.
    let text = "😀 {{ inputs.";
    let c = complete_at(&doc, None, "output.q", text, text.encode_utf16().count());
    assert_eq!(labels(&c), ["q", "min"]);
    assert_eq!(c.from, 13);
}
