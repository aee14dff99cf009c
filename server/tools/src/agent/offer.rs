//! What an agent step offers its model: the tools and workflows its step lists, each under a
//! name model APIs accept (`[A-Za-z0-9_-]`, at most 64 characters), with the definition the
//! model reads — a tool's declaration, or a workflow's description and declared inputs.

use vai_providers::llm::ToolDefinition;
use vai_workflow::tool::{Callable, tool_arguments, workflow_arguments};

/// One tool or workflow offered, and the name the model calls it by.
pub(super) struct Offered<'a> {
    pub(super) model_name: String,
    pub(super) callable: Callable<'a>,
}

/// Everything a step offers, in the order it lists them.
#[derive(Default)]
pub(super) struct Offer<'a> {
    list: Vec<Offered<'a>>,
}

impl<'a> Offer<'a> {
    pub(super) fn new(callable: Vec<Callable<'a>>) -> Self {
        let mut list: Vec<Offered<'a>> = Vec::with_capacity(callable.len());
        for callable in callable {
            let base = model_name(callable.name());
            let mut name = base.clone();
            let mut n = 1;
            while list.iter().any(|o| o.model_name == name) {
                n += 1;
                let suffix = format!("_{n}");
                name = format!("{}{suffix}", cut(&base, 64 - suffix.len()));
            }
            list.push(Offered {
                model_name: name,
                callable,
            });
        }
        Offer { list }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The names as the step gave them.
    pub(super) fn names(&self) -> Vec<&str> {
        self.list.iter().map(|o| o.callable.name()).collect()
    }

    /// What the model calls `model_name`, when it is offered.
    pub(super) fn find(&self, model_name: &str) -> Option<&Offered<'a>> {
        self.list.iter().find(|o| o.model_name == model_name)
    }

    /// The names the model may call, for telling it when it calls another.
    pub(super) fn model_names(&self) -> String {
        let names: Vec<&str> = self.list.iter().map(|o| o.model_name.as_str()).collect();
        names.join(", ")
    }

    pub(super) fn definitions(&self) -> Vec<ToolDefinition> {
        self.list
            .iter()
            .map(|o| match o.callable {
                Callable::Tool(spec) => ToolDefinition {
                    name: o.model_name.clone(),
                    description: format!("{}. {}", spec.description, spec.help),
                    input_schema: tool_arguments(spec),
                },
                Callable::Workflow { name, workflow } => ToolDefinition {
                    name: o.model_name.clone(),
                    description: format!(
                        "Runs the vai workflow \"{name}\" ({}) on the arguments as its inputs \
                         and returns its output.{}",
                        workflow.name,
                        workflow
                            .description
                            .as_deref()
                            .map(|d| format!(" {d}"))
                            .unwrap_or_default()
                    ),
                    input_schema: workflow_arguments(workflow),
                },
            })
            .collect()
    }
}

/// `name` as model APIs accept a tool's name: other characters become `_`, cut to 64.
fn model_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    cut(&safe, 64).to_string()
}

/// The first `max` characters of ASCII `text`.
fn cut(text: &str, max: usize) -> &str {
    &text[..text.len().min(max)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_names_a_model_api_accepts_and_stay_distinct() {
        assert_eq!(model_name("book-flight"), "book-flight");
        assert_eq!(
            model_name("book.vai-workflow.json"),
            "book_vai-workflow_json"
        );
        assert_eq!(model_name("résumé").len(), 6);
        assert_eq!(model_name(&"x".repeat(80)).len(), 64);
    }
}
