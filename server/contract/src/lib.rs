//! The playground's wire contract: every REST body and reply and every WebSocket message
//! (docs/api.md). `web/src/api/types.ts` is generated from these types; a test fails when the
//! committed file drifts (`VAI_UPDATE_GENERATED=1 cargo test -p vai-contract`).

pub mod catalog;
pub mod chat;
pub mod edit;
pub mod history;
pub mod rules;
pub mod runs;
pub mod socket;
pub mod workflows;

pub use catalog::{
    Backend, CategoryView, ConfigStatus, ModelPriceView, PricingTable, ProviderId, ProviderStatus,
    ToolCatalog, ToolExplanation, ToolOutputField, ToolView,
};
pub use chat::{
    AnswerMethod, ChatAsk, ChatConfig, ChatEvent, ChatMode, ChatSession, ChatSessionList,
    ChatSessionSummary, ChatSource, ChatTimings, ChatToolCall, ChatTurn, TurnState, TurnStatus,
};
pub use edit::{
    CompleteRequest, CompleteResponse, DefinitionBody, FormatResponse, ReferencesResponse,
    RewriteRequest, RewriteResponse, SaveRequest, SaveResponse, TestCaseRequest, TestCaseSaved,
};
pub use history::{HistoryEntry, HistoryList, HistoryRecord, RestartRun, RestartedFrom};
pub use runs::{
    ApiErrorBody, ApiErrorCode, CancelAccepted, CompensationState, ErrorInfo, InputAccepted,
    PausedStep, ResumeAccepted, RunCreated, RunInput, RunList, RunOutput, RunSnapshot, RunState,
    RunSummary, StartRun, StepDetail, StepState, StepStatus, WaitingFor,
};
pub use socket::{ClientMessage, ServerMessage};
pub use vai_workflow::edit::{Completion, CompletionKind, ReferenceKind, ReferenceSite};
pub use vai_workflow::history::{FieldChange, ResultMove, ResultsDiff, RunDiff, RunSide, StepDiff};
pub use workflows::{
    EdgeKind, GraphEdge, GraphNode, GraphView, InputField, PlanResponse, StarterList, StepNode,
    ValidateResponse, WorkflowBody, WorkflowDocument, WorkflowList, WorkflowSource,
    WorkflowStarter, WorkflowSummary,
};

/// Largest output (as JSON) sent inline on the socket and in snapshots; larger ones are fetched
/// from the step route.
pub const INLINE_OUTPUT_LIMIT: usize = 16 * 1024;

/// The TypeScript declarations of every wire type, in one module, as `web/src/api/types.ts`
/// holds them.
pub fn typescript() -> String {
    use ts_rs::{Config, TS};
    use vai_workflow::expects::FieldError;
    use vai_workflow::input_schema::{
        AdditionalProperties, InputSchema, JsonType, ObjectType, PropertySchema, SchemaType,
        WidgetFormat,
    };
    use vai_workflow::model::{
        Compensation, Formatters, InputDecl, InputType, Note, RetryPolicy, Step, UiPosition,
        Workflow, WorkflowUi,
    };
    use vai_workflow::{
        ApiCalls, Category, Cost, Diagnostic, DiagnosticCode, Estimate, EstimateCost, Mode, Resume,
        ResumeAction, RunEvent, RunStatus, Severity, StepThrough, Usage,
    };

    // Every integer on the wire fits a JavaScript number.
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// generated — do not edit; VAI_UPDATE_GENERATED=1 cargo test -p vai-contract\n",
    );
    // Any JSON (`serde_json::Value`, which ts-rs names but does not declare). Object members
    // are optional so that the typed documents below, whose optional fields may hold
    // `undefined`, are JsonValues too: the builder sends a `Workflow` as a `definition`.
    out.push_str(
        "\nexport type JsonValue = number | string | boolean | Array<JsonValue> | \
         { [key in string]?: JsonValue } | null;\n",
    );
    macro_rules! decls {
        ($($t:ty),* $(,)?) => {$(
            out.push('\n');
            if let Some(docs) = <$t as TS>::docs() {
                out.push_str(&docs);
            }
            out.push_str("export ");
            out.push_str(&<$t as TS>::decl(&cfg));
            out.push('\n');
        )*};
    }
    decls!(
        // the workflow document
        Workflow,
        InputDecl,
        InputType,
        Step,
        Compensation,
        RetryPolicy,
        Formatters,
        WorkflowUi,
        UiPosition,
        Note,
        // engine types
        Mode,
        Severity,
        DiagnosticCode,
        Diagnostic,
        Category,
        ApiCalls,
        Estimate,
        EstimateCost,
        Usage,
        Cost,
        RunStatus,
        ResumeAction,
        RunEvent,
        // workflows
        WorkflowSource,
        WorkflowSummary,
        WorkflowList,
        WorkflowStarter,
        StarterList,
        WorkflowDocument,
        WorkflowBody,
        ValidateResponse,
        PlanResponse,
        GraphView,
        GraphNode,
        StepNode,
        InputField,
        EdgeKind,
        GraphEdge,
        // editing
        DefinitionBody,
        ReferencesResponse,
        ReferenceSite,
        ReferenceKind,
        RewriteRequest,
        RewriteResponse,
        CompleteRequest,
        CompleteResponse,
        Completion,
        CompletionKind,
        FormatResponse,
        SaveRequest,
        SaveResponse,
        TestCaseRequest,
        TestCaseSaved,
        // tools and configuration
        ToolCatalog,
        ToolView,
        InputSchema,
        ObjectType,
        PropertySchema,
        SchemaType,
        JsonType,
        AdditionalProperties,
        WidgetFormat,
        ToolOutputField,
        ToolExplanation,
        CategoryView,
        ConfigStatus,
        ProviderId,
        Backend,
        ProviderStatus,
        PricingTable,
        ModelPriceView,
        // runs
        StartRun,
        StepThrough,
        RunCreated,
        CancelAccepted,
        Resume,
        ResumeAccepted,
        PausedStep,
        RunState,
        RunSummary,
        RunList,
        StepStatus,
        StepState,
        RunSnapshot,
        StepDetail,
        RunOutput,
        ApiErrorBody,
        ApiErrorCode,
        ErrorInfo,
        FieldError,
        CompensationState,
        WaitingFor,
        RunInput,
        InputAccepted,
        // run history
        HistoryEntry,
        RestartedFrom,
        HistoryList,
        HistoryRecord,
        RestartRun,
        RunDiff,
        RunSide,
        StepDiff,
        FieldChange,
        ResultsDiff,
        ResultMove,
        // chat
        ChatMode,
        TurnState,
        TurnStatus,
        ChatSource,
        AnswerMethod,
        ChatToolCall,
        ChatTimings,
        ChatTurn,
        ChatSession,
        ChatSessionSummary,
        ChatSessionList,
        ChatEvent,
        ChatAsk,
        ChatConfig,
        // socket
        ServerMessage,
        ClientMessage,
    );
    // Where ts-rs inlines `Value` (the index signature of a flattened `extra`), it writes the
    // union with required object members, which disagrees with `JsonValue` above: an optional
    // `JsonValue` field such as `Workflow.output` then fails its own type's index signature, and
    // `{ ...workflow, steps }` does not type-check. Name `JsonValue` there instead.
    out.replace(
        &format!(" {} ", <serde_json::Value as TS>::inline(&cfg)),
        " JsonValue ",
    )
}

/// Checks that the committed file at `path` (from the repository's root) is `generated`, after
/// writing it when `VAI_UPDATE_GENERATED` is set.
#[cfg(test)]
fn assert_generated(path: &str, generated: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
        std::fs::write(&path, generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date: run VAI_UPDATE_GENERATED=1 cargo test -p vai-contract",
        path.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `web/src/api/types.ts` is generated; regenerate with
    /// `VAI_UPDATE_GENERATED=1 cargo test -p vai-contract`.
    /// A typed document spread into a new one must still be that type: the unknown-keys index
    /// signature reads `JsonValue`, the same "any JSON" as the typed fields.
    #[test]
    fn unknown_keys_are_json_values() {
        let ts = typescript();
        assert!(!ts.contains(&<serde_json::Value as ts_rs::TS>::inline(
            &ts_rs::Config::new()
        )));
        assert!(ts.contains("& ({ [key in string]: JsonValue })"));
    }

    #[test]
    fn typescript_matches_the_contract() {
        assert_generated("web/src/api/types.ts", &typescript());
    }

    /// Every code a local server may answer with is in docs/api.md, as serde writes it.
    #[test]
    fn every_error_code_is_documented() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md");
        let doc = std::fs::read_to_string(path).unwrap();
        for code in ApiErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
            assert!(
                doc.contains(&format!("`{}`", code.as_str())),
                "docs/api.md does not list {}",
                code.as_str()
            );
        }
    }
}
