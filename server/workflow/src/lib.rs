//! The vai workflow engine: loads `.vai-workflow.json` files, validates them (every problem at
//! once), parses templates into typed trees, plans the DAG and runs it on tokio, emitting typed
//! run events. It knows nothing of HTTP frameworks, command lines or concrete providers.

pub mod control;
pub mod expr;
pub mod input_schema;
pub mod limits;
pub mod scope;
pub mod template;
pub mod tool;
pub mod value;

pub use input_schema::{InputSchema, PropertySchema};
pub use inputs::Inputs;
pub use limits::{Budget, Limit, LimitError, Limits};
pub use scope::{Context, Locals, Scope};
pub use template::{Condition, Template, TemplateError};
pub use tool::{
    ApiCalls, CallPricer, Category, Cost, DeferredInput, DeferredKind, DeferredValue, Effects,
    Registry, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec, Usage, has_template,
    run_alone,
};
pub mod compile;
pub mod diagnostic;
pub mod edit;
pub mod estimate;
pub mod events;
pub mod exec;
pub mod expects;
pub mod format;
pub mod fsutil;
pub mod history;
pub mod inputs;
pub mod journal;
pub mod load;
pub mod model;
pub mod rules;
pub mod starters;
pub mod test_cases;
#[cfg(test)]
pub(crate) mod test_support;

pub use compile::{Children, Compiled, Mode, NoChildren, Plan, compile, compile_with};
pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use estimate::{Estimate, EstimateCost, estimate, estimate_plan};
pub use events::{EventSink, ResumeAction, RunEvent, RunStatus};
pub use exec::{
    Mocks, NotPaused, OnlyStep, Resume, RunOptions, RunResult, StepOutcome, StepRecord,
    StepThrough, Stepping, run,
};
pub use model::Workflow;
