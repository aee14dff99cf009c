//! A tool's declaration: everything the engine, the CLI, the builder and the docs know about a
//! tool before it runs — its inputs, outputs, category, provider calls and effects.

use crate::input_schema::InputSchema;
use serde::Serialize;

/// The group a tool belongs to: the palette, the catalog and docs/tools.md list tools by it, and
/// the builder colours its nodes by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Retrieval,
    Embedding,
    Management,
    Utility,
    ControlFlow,
    Generation,
    Integration,
}

impl Category {
    /// Every category, in the order the palette, the catalog and docs/tools.md list them: the
    /// pipeline's own order (find, embed, manage, generate), then control flow, utilities and
    /// integrations.
    pub const ALL: [Category; 7] = [
        Category::Retrieval,
        Category::Embedding,
        Category::Management,
        Category::Generation,
        Category::ControlFlow,
        Category::Utility,
        Category::Integration,
    ];

    /// Where this category comes in [`Category::ALL`].
    pub fn rank(self) -> usize {
        Category::ALL
            .iter()
            .position(|c| *c == self)
            .unwrap_or(Category::ALL.len())
    }

    pub fn colour(self) -> &'static str {
        match self {
            Category::Retrieval => "#40E0FF",
            Category::Embedding => "#B388FF",
            Category::Management => "#00D4AA",
            Category::Utility => "#FFB74D",
            Category::ControlFlow => "#90A4AE",
            Category::Generation => "#69F0AE",
            Category::Integration => "#F5A623",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Category::Retrieval => "Retrieval",
            Category::Embedding => "Embedding",
            Category::Management => "Management",
            Category::Utility => "Utility",
            Category::ControlFlow => "Control flow",
            Category::Generation => "Generation",
            Category::Integration => "Integration",
        }
    }
}

/// How the engine treats an input whose value is evaluated by the tool itself, per element,
/// with extra local names in scope (`item`, `index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeferredKind {
    /// A condition string (`item.score >= {{ inputs.min }}`), evaluated to a boolean.
    Condition,
    /// Any JSON holding templates (`{"title": "{{ item.name }}"}`), resolved per element.
    Template,
}

/// An input the engine must not resolve up front.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct DeferredInput {
    pub name: &'static str,
    pub kind: DeferredKind,
    /// Local names the tool binds when it evaluates this input.
    pub locals: &'static [&'static str],
}

/// Everything the engine, the CLI, the builder and the docs know about a tool: declared once.
#[derive(Debug, Clone, Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    /// Short human label ("Vector search").
    pub label: &'static str,
    pub category: Category,
    /// Icon name (Material icon identifiers, e.g. "Search"), used by the playground.
    pub icon: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Longer help: what it does and how, shown in the inspector and in `docs/workflows.md`.
    pub help: &'static str,
    /// The `inputs` object: every input with its type, bounds, widget hint and default — the
    /// default the tool itself reads (`vai_tools::args`); `required` lists required inputs.
    pub input_schema: InputSchema,
    /// Output field names and a one-line description each, in order.
    pub outputs: &'static [(&'static str, &'static str)],
    /// Inputs the tool evaluates itself per element.
    pub deferred: &'static [DeferredInput],
    /// The input whose value best summarises a node ("query", "text", …).
    pub main_input: Option<&'static str>,
    /// Which provider calls one run of this tool makes, for `--dry-run` estimates.
    pub api_calls: ApiCalls,
    /// What running it does to the world, at worst: the MCP server's tool annotations.
    pub effects: Effects,
    /// Boolean inputs that, set to the literal `false`, skip calls counted in `api_calls`, each
    /// with the calls it skips (`query`'s `rerank`): the dry-run estimate leaves them out.
    pub optional_calls: &'static [(&'static str, ApiCalls)],
    /// Reads or writes the vector store (MongoDB, or the local store and its sample knowledge
    /// base): a front end has the sample in place before such a call, or a run with such a step.
    pub uses_store: bool,
}

impl ToolSpec {
    pub fn colour(&self) -> &'static str {
        self.category.colour()
    }

    /// Names listed in the schema's `required` array.
    pub fn required_inputs(&self) -> Vec<&str> {
        self.input_schema
            .required
            .iter()
            .map(String::as_str)
            .collect()
    }

    pub fn deferred(&self, name: &str) -> Option<&DeferredInput> {
        self.deferred.iter().find(|d| d.name == name)
    }
}

/// Provider calls made by one execution of a tool (an estimate for dry runs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ApiCalls {
    pub embed: u32,
    pub rerank: u32,
    pub vector_search: u32,
    pub llm: u32,
    pub http: u32,
}

impl ApiCalls {
    /// No call at all (what a step of pure computation makes).
    pub const NONE: ApiCalls = ApiCalls {
        embed: 0,
        rerank: 0,
        vector_search: 0,
        llm: 0,
        http: 0,
    };
}

/// What running a tool does besides returning its output: the MCP server's tool annotations are
/// these. Declared for the worst a call may do (any method, any flag), since a client reads them
/// before it knows the inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effects {
    /// Changes nothing anywhere (reads, computes, calls a model).
    pub read_only: bool,
    /// May delete or overwrite existing data (only meaningful when not read_only).
    pub destructive: bool,
    /// Calling it again with the same inputs has no further effect.
    pub idempotent: bool,
    /// Reaches services outside vai (Voyage AI, MongoDB, an LLM API, arbitrary URLs) — true also
    /// when the offline local default may serve it instead, since a configured provider is remote.
    pub open_world: bool,
}

impl Effects {
    /// Computes on its inputs and vai's own data, reaching nothing outside the process.
    pub const PURE: Effects = Effects {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };

    /// Reads from or asks a provider (embeddings, vector search, an LLM) and changes nothing.
    pub const READS_REMOTE: Effects = Effects {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: true,
    };

    /// May change or remove what a service holds, and doing it twice is not doing it once.
    pub const MAY_CHANGE_REMOTE: Effects = Effects {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
    };
}
