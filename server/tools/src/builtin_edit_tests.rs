//! The engine's reference index and renames (`vai_workflow::edit`) on every shipped workflow,
//! with the real tools' declarations: the references agree with the planner's dependencies, and
//! renaming any step or input and back is the identity.

use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use vai_workflow::edit::{INPUTS_NODE, ReferenceKind, Renames, references, rewrite};
use vai_workflow::rules::RESERVED_IDS;
use vai_workflow::{Children, Compiled, Mode, Registry, compile_with};

/// Every built-in and example, by file name.
fn shipped() -> Vec<(String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workflows");
    let mut out = Vec::new();
    for dir in [root.clone(), root.join("examples")] {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| !p.ends_with("workflow.schema.json"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, serde_json::from_str(&text).unwrap()));
        }
    }
    assert!(out.len() >= 10, "found only {} workflows", out.len());
    out
}

/// The shipped workflows as the library finds them: `workflow` steps call them by name.
struct Shipped;

impl Children for Shipped {
    fn load(&self, name: &str) -> Result<(String, Value), String> {
        shipped()
            .into_iter()
            .find(|(file, _)| file.strip_suffix(".json") == Some(name))
            .ok_or_else(|| format!("no shipped workflow \"{name}\""))
    }
}

fn compile(doc: &Value, registry: &Registry, mode: Mode) -> Compiled {
    compile_with(doc, registry, mode, &Shipped, "")
}

/// Step → step dependencies (`from` runs first) as the references describe them.
fn dependencies_by_references(doc: &Value, registry: &Registry) -> BTreeSet<(String, String)> {
    references(doc, registry)
        .into_iter()
        .filter_map(|site| {
            let step = site.step_id?;
            let target = site.target.filter(|t| t != INPUTS_NODE)?;
            // `then`/`else` list the steps that run after the conditional.
            let branch = site.kind == ReferenceKind::Id && site.field.starts_with("inputs.");
            let edge = if branch {
                (step, target)
            } else {
                (target, step)
            };
            (edge.0 != edge.1).then_some(edge)
        })
        .collect()
}

#[test]
fn references_agree_with_the_planner() {
    let registry = crate::unconfigured_registry();
    for (name, doc) in shipped() {
        let compiled = compile(&doc, &registry, Mode::Strict);
        assert!(compiled.is_valid(), "{name}: {:#?}", compiled.diagnostics);
        let workflow = compiled.workflow.as_ref().unwrap();
        let outline = compiled.outline.as_ref().unwrap();
        let id = |i: usize| workflow.steps[i].id.clone();
        let planned: BTreeSet<(String, String)> = outline
            .edges
            .iter()
            .filter(|e| e.from != e.to)
            .map(|e| (id(e.from), id(e.to)))
            .collect();
        assert_eq!(
            dependencies_by_references(&doc, &registry),
            planned,
            "{name}"
        );
        // And the inputs each step reads.
        let mut planned_inputs: Vec<(String, String)> = outline
            .inputs
            .iter()
            .map(|r| (id(r.step), r.input.clone()))
            .collect();
        planned_inputs.sort();
        planned_inputs.dedup();
        let mut found: Vec<(String, String)> = references(&doc, &registry)
            .into_iter()
            .filter(|s| s.target.as_deref() == Some(INPUTS_NODE) && s.step_id.is_some())
            .filter_map(|s| {
                let input = match s.path.strip_prefix("inputs.") {
                    Some(rest) => rest.split(['.', '[']).next()?.to_string(),
                    None => String::new(),
                };
                Some((s.step_id?, input))
            })
            .collect();
        found.sort();
        found.dedup();
        assert_eq!(found, planned_inputs, "{name}");
    }
}

fn renamed(
    doc: &Value,
    registry: &Registry,
    steps: &[(&str, &str)],
    inputs: &[(&str, &str)],
) -> Value {
    let renames = Renames {
        steps: steps
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        inputs: inputs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
    };
    rewrite(doc, &renames, registry).unwrap().definition
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any step or input of any shipped workflow, renamed to any free name and back, is the
    /// file as it was; in between, every reference follows and the plan is the same graph.
    #[test]
    fn rename_and_back_is_the_identity(new in "[a-z_][a-z0-9_]{0,10}") {
        let registry = crate::unconfigured_registry();
        for (name, doc) in shipped() {
            let before = compile(&doc, &registry, Mode::Strict);
            let ids: Vec<String> = before.workflow.as_ref().unwrap().steps.iter().map(|s| s.id.clone()).collect();
            let inputs: Vec<String> = before.workflow.as_ref().unwrap().inputs.keys().cloned().collect();
            let free = !ids.contains(&new) && !inputs.contains(&new) && !RESERVED_IDS.contains(&new.as_str());
            prop_assume!(free);
            let deps = dependencies_by_references(&doc, &registry);
            for old in &ids {
                let there = renamed(&doc, &registry, &[(old, &new)], &[]);
                let after = compile(&there, &registry, Mode::Strict);
                prop_assert!(after.is_valid(), "{} {} → {}: {:#?}", name, old, new, after.diagnostics);
                let swap = |s: &String| if s == old { new.clone() } else { s.clone() };
                let expected: BTreeSet<(String, String)> = deps.iter().map(|(a, b)| (swap(a), swap(b))).collect();
                prop_assert_eq!(dependencies_by_references(&there, &registry), expected, "{} {}", name, old);
                let back = renamed(&there, &registry, &[(&new, old)], &[]);
                prop_assert_eq!(&back, &doc, "{} {} → {} → back", name, old, new);
            }
            for old in &inputs {
                let there = renamed(&doc, &registry, &[], &[(old, &new)]);
                prop_assert!(compile(&there, &registry, Mode::Strict).is_valid(), "{} input {}", name, old);
                let back = renamed(&there, &registry, &[], &[(&new, old)]);
                prop_assert_eq!(&back, &doc, "{} input {} → {} → back", name, old, new);
            }
        }
    }
}
