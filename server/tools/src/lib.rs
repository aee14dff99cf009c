//! The step tools: one module per tool, each declaring its schema, category and icon in its
//! `ToolSpec`, and implementing `vai_workflow::Tool`; and what estimates price calls with
//! (`plan_cost`).

pub mod args;
pub mod catalog;

// Data and control tools (no provider).
pub mod chunk;
pub mod estimate;
pub mod explain;
pub mod filter;
pub mod http;
pub mod merge;
pub mod models;
pub mod plan_cost;
pub mod template;
pub mod transform;

// Provider-backed tools.
pub mod agent;
pub mod aggregate;
pub mod collections;
pub mod embed;
pub mod evaluator;
pub mod generate;
pub mod ingest;
pub mod query;
pub mod rerank;
pub(crate) mod retrieval;
pub mod router;
pub mod search;
pub(crate) mod served;
pub mod similarity;

use std::sync::Arc;
use vai_providers::Providers;
use vai_workflow::{Effects, Registry, ToolSpec};

/// Every tool, wired to `providers` (and the engine's own `conditional` and `loop`).
pub fn registry(providers: Arc<Providers>, http: http::HttpPolicy) -> Registry {
    let mut r = Registry::new();
    let serving = plan_cost::Serving::of(&providers);
    r.set_pricer(Arc::new(plan_cost::PlanPricer::new(
        providers.clone(),
        serving,
    )));
    r.register(Arc::new(merge::Merge));
    r.register(Arc::new(filter::Filter));
    r.register(Arc::new(transform::Transform));
    r.register(Arc::new(template::TemplateTool));
    r.register(Arc::new(chunk::ChunkTool));
    r.register(Arc::new(explain::Explain));
    r.register(Arc::new(estimate::Estimate));
    r.register(Arc::new(models::Models));
    r.register(Arc::new(http::Http::new(http)));
    r.register(Arc::new(query::Query::new(providers.clone())));
    r.register(Arc::new(search::Search::new(providers.clone())));
    r.register(Arc::new(rerank::Rerank::new(providers.clone())));
    r.register(Arc::new(embed::Embed::new(providers.clone())));
    r.register(Arc::new(similarity::Similarity::new(providers.clone())));
    r.register(Arc::new(ingest::Ingest::new(providers.clone())));
    r.register(Arc::new(collections::Collections::new(providers.clone())));
    r.register(Arc::new(aggregate::Aggregate::new(providers.clone())));
    r.register(Arc::new(generate::Generate::new(providers.clone())));
    r.register(Arc::new(evaluator::Evaluator::new(providers.clone())));
    r.register(Arc::new(router::Router::new(providers.clone())));
    r.register(Arc::new(agent::Agent::new(providers)));
    r
}

/// The tool reference (docs/tools.md), generated from the tools' declarations.
pub fn catalog_markdown(registry: &Registry) -> String {
    let mut out = String::from(
        "# Tools\n\n<!-- Generated from the tool declarations by `cargo test -p vai-tools catalog`; do not edit. -->\n\n\
         Every step names one of these tools. Inputs may hold `{{ templates }}`; `*` marks required inputs. \
         Outputs are what `{{ <step>.output.<field> }}` reads. See [workflows.md](workflows.md) for the file format.\n\n",
    );
    let mut specs: Vec<&ToolSpec> = registry.specs().collect();
    specs.sort_by_key(|s| (s.category.rank(), s.name));
    out.push_str("| tool | category | what it does |\n|---|---|---|\n");
    for s in &specs {
        out.push_str(&format!(
            "| [`{}`](#{}) | {} | {} |\n",
            s.name,
            s.name,
            s.category.label(),
            s.description
        ));
    }
    for s in specs {
        out.push_str(&format!(
            "\n## {}\n\n*{} · {} · {}*\n\n{}\n\n",
            s.name,
            s.label,
            s.category.label(),
            effects_note(s.effects),
            s.help
        ));
        let required = s.required_inputs();
        let props = &s.input_schema.properties;
        if !props.is_empty() {
            out.push_str("| input | type | default | description |\n|---|---|---|---|\n");
            for (name, p) in props {
                let star = if required.contains(&name.as_str()) {
                    "*"
                } else {
                    ""
                };
                let types: Vec<&str> = p.types().into_iter().map(|t| t.as_str()).collect();
                let ty = if types.is_empty() {
                    "any".to_string()
                } else {
                    types.join(" \\| ")
                };
                let default = p
                    .default
                    .as_ref()
                    .map(|d| format!("`{d}`"))
                    .unwrap_or_default();
                let desc = p.description.as_deref().unwrap_or("").replace('|', "\\|");
                out.push_str(&format!("| `{name}`{star} | {ty} | {default} | {desc} |\n"));
            }
            out.push('\n');
        }
        if let Some(d) = s.deferred.first() {
            out.push_str(&format!(
                "`{}` is evaluated by the tool for each element, with {} in scope.\n\n",
                d.name,
                d.locals
                    .iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
        }
        if !s.outputs.is_empty() {
            out.push_str("| output | description |\n|---|---|\n");
            for (name, desc) in s.outputs {
                out.push_str(&format!("| `{name}` | {} |\n", desc.replace('|', "\\|")));
            }
        }
    }
    out
}

/// A tool's declared side effects in a few words, for its heading in docs/tools.md.
fn effects_note(e: Effects) -> String {
    let mut note = String::from(match (e.read_only, e.destructive) {
        (true, _) => "read-only",
        (false, false) => "adds data",
        (false, true) => "may overwrite or delete data",
    });
    if !e.read_only && !e.idempotent {
        note.push_str(", not idempotent");
    }
    note.push_str(if e.open_world {
        " · may reach services outside vai"
    } else {
        " · local"
    });
    note
}

/// Every tool, with no provider configured: for tests that only need the declarations.
#[cfg(test)]
pub(crate) fn unconfigured_registry() -> Registry {
    registry(
        Arc::new(Providers::none(Default::default())),
        http::HttpPolicy::default(),
    )
}

#[cfg(test)]
mod builtin_edit_tests;
#[cfg(test)]
mod cost_tests;
#[cfg(test)]
mod defaults_tests;
#[cfg(test)]
mod effects_tests;

#[cfg(test)]
mod catalog_tests {
    use super::*;

    fn all() -> Registry {
        unconfigured_registry()
    }

    /// docs/tools.md is generated; regenerate with `VAI_UPDATE_GENERATED=1 cargo test -p vai-tools catalog`.
    #[test]
    fn catalog_doc_matches_the_declarations() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/tools.md");
        let generated = catalog_markdown(&all());
        if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{} is out of date: run VAI_UPDATE_GENERATED=1 cargo test -p vai-tools catalog",
            path.display()
        );
    }

    #[test]
    fn every_tool_of_the_format_is_registered_once_with_a_schema() {
        let r = all();
        let names: Vec<&str> = r.names().collect();
        for name in [
            "query",
            "search",
            "rerank",
            "embed",
            "similarity",
            "ingest",
            "collections",
            "models",
            "explain",
            "estimate",
            "merge",
            "filter",
            "transform",
            "generate",
            "evaluator",
            "agent",
            "conditional",
            "loop",
            "template",
            "chunk",
            "aggregate",
            "http",
            "workflow",
            "yield",
            "fail",
            "router",
        ] {
            assert!(names.contains(&name), "{name} missing");
            let spec = r.spec(name).unwrap();
            for req in spec.required_inputs() {
                assert!(
                    spec.input_schema.property(req).is_some(),
                    "{name}: required {req} not declared"
                );
            }
        }
        assert_eq!(names.len(), 26);
    }
}
