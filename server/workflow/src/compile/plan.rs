//! The sealed plan: a validated workflow with every step parsed and its dependencies resolved,
//! read-only once built (`build` makes it).

use crate::expects::Expects;
use crate::model::{RetryPolicy, Workflow};
use crate::template::{Condition, Template};
use crate::tool::DeferredValue;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// A validated workflow, ready to run. Read-only once built.
#[derive(Debug, Clone)]
pub struct Plan {
    pub workflow: Workflow,
    pub steps: Vec<PlannedStep>,
    /// Kahn layers of step indices, for display and dry runs (execution is by readiness).
    pub layers: Vec<Vec<usize>>,
    pub edges: Vec<Edge>,
    pub output: Option<Template>,
    /// The plans of the workflows the `workflow` steps call, by step index.
    pub children: HashMap<usize, Arc<Plan>>,
    /// What the steps whose tool calls tools may call (an `agent`'s `tools`), by step index.
    pub callees: HashMap<usize, Arc<Callees>>,
    /// What the workflow was loaded as (a file or built-in name), for messages about a chain
    /// of workflows.
    pub label: String,
    index: HashMap<String, usize>,
}

impl Plan {
    /// The plan of `workflow`: its steps in file order, and `index` from step id to position.
    pub(super) fn new(
        workflow: Workflow,
        steps: Vec<PlannedStep>,
        layers: Vec<Vec<usize>>,
        edges: Vec<Edge>,
        output: Option<Template>,
        index: HashMap<String, usize>,
    ) -> Self {
        Self {
            workflow,
            steps,
            layers,
            edges,
            output,
            children: HashMap::new(),
            callees: HashMap::new(),
            label: String::new(),
            index,
        }
    }

    pub fn step_index(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    pub fn layer_ids(&self) -> Vec<Vec<String>> {
        self.layers
            .iter()
            .map(|l| l.iter().map(|&i| self.steps[i].id.clone()).collect())
            .collect()
    }
}

/// What a step's tool may call (the names of its `tool-names` input), in the order it lists them.
#[derive(Debug, Clone, Default)]
pub struct Callees(pub Vec<Callee>);

/// One thing a step's tool may call.
#[derive(Debug, Clone)]
pub enum Callee {
    /// A registry tool, by name.
    Tool(String),
    /// A workflow as the step names it, loaded when the workflow was checked.
    Workflow { name: String, plan: Arc<Plan> },
}

/// One step, with everything the executor needs already parsed.
#[derive(Debug, Clone)]
pub struct PlannedStep {
    pub id: String,
    pub name: String,
    pub tool: String,
    /// The inputs resolved before each call (deferred inputs and control-flow fields excluded).
    pub inputs: Template,
    pub deferred: Arc<HashMap<String, DeferredValue>>,
    pub condition: Option<Condition>,
    pub for_each: Option<Template>,
    pub for_each_concurrency: usize,
    pub continue_on_error: bool,
    pub retry: Option<RetryPolicy>,
    pub timeout: Option<Duration>,
    /// Indices of the steps this one waits for, ascending.
    pub deps: Vec<usize>,
    pub kind: StepKind,
    /// What undoes the step when the run ends badly after it completed.
    pub compensate: Option<Compensate>,
}

/// A step's compensation: its tool, and inputs resolved when the step completes.
#[derive(Debug, Clone)]
pub struct Compensate {
    pub tool: String,
    pub inputs: Template,
    pub retry: Option<RetryPolicy>,
    pub timeout: Option<Duration>,
}

/// How the executor runs a step.
#[derive(Debug, Clone)]
pub enum StepKind {
    Tool,
    Conditional {
        condition: Condition,
        then: Vec<usize>,
        otherwise: Vec<usize>,
    },
    Loop {
        var: String,
        tool: String,
        inputs: Template,
    },
    /// Run the child workflow `name` (its plan is in `Plan::children`).
    Workflow {
        name: String,
    },
    /// Wait for a person's answer.
    Yield {
        expects: Arc<Expects>,
        timeout: Option<Duration>,
        /// The answer taken when the wait times out (`onTimeout: "default"`); `None` fails.
        on_timeout: Option<serde_json::Value>,
    },
    /// End the run failed with the resolved `message`.
    Fail,
    /// A `router`: its tool picks one of `routes`; the steps of the others are skipped.
    Router {
        routes: Vec<Route>,
    },
}

/// One of a `router`'s routes: its id and the steps it runs.
#[derive(Debug, Clone)]
pub struct Route {
    pub id: String,
    pub steps: Vec<usize>,
}

/// Why one step depends on another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DependencyKind {
    Reference,
    DependsOn,
    Then,
    Else,
    /// A step listed in one of a `router`'s routes (the edge's label is the route id).
    Route,
}

/// A dependency edge, `from` → `to`, with the expression or field that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: DependencyKind,
    /// The referenced path (`search.output.results`), or the field (`dependsOn`, `then`).
    pub label: String,
    /// Where in the dependent step the reference sits (`inputs.query`, `condition`).
    pub field: String,
}
