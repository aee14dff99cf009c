// generated — do not edit; VAI_UPDATE_GENERATED=1 cargo test -p vai-contract

export type Severity = "error" | "warning" | "info";

/**
 * One finding.
 */
export type Diagnostic = { severity: Severity, 
/**
 * Stable code, e.g. `UNKNOWN_STEP_REF` (listed in docs/workflows.md).
 */
code: string, message: string, stepId?: string, 
/**
 * Dotted field path within the step or file, e.g. `inputs.query` or `inputs.arrays[1]`.
 */
field?: string, 
/**
 * The step a reference points at, for reference errors.
 */
referencedStep?: string, 
/**
 * 1-based line and column in the file, for JSON syntax errors.
 */
line?: number, column?: number, };

/**
 * Node colour group (DESIGN §2.5).
 */
export type Category = "retrieval" | "embedding" | "management" | "utility" | "control_flow" | "generation" | "integration";

/**
 * Provider calls made by one execution of a tool (an estimate for dry runs).
 */
export type ApiCalls = { embed: number, rerank: number, vectorSearch: number, llm: number, http: number, };

/**
 * Token and request counts a tool reports for cost display. Never stored in the context.
 */
export type Usage = { embedTokens?: number, rerankTokens?: number, llmInputTokens?: number, llmOutputTokens?: number, requests?: number, };

/**
 * How a run ended.
 */
export type RunStatus = "completed" | "failed" | "cancelled";

/**
 * Something that happened during a run, in order.
 */
export type RunEvent = { "type": "run_started", workflow: string, 
/**
 * Step ids per Kahn layer.
 */
layers: Array<Array<string>>, totalSteps: number, } | { "type": "step_started", stepId: string, name: string, tool: string, } | { "type": "step_retrying", stepId: string, attempt: number, error: string, delayMs: number, } | { "type": "step_completed", stepId: string, durationMs: number, 
/**
 * One line describing the output ("12 results").
 */
summary: string, usage?: Usage, 
/**
 * Which backend served the step (voyage, mongodb, local, …).
 */
backend?: string, } | { "type": "step_skipped", stepId: string, reason: string, } | { "type": "step_failed", stepId: string, error: string, durationMs: number, 
/**
 * True when `continueOnError` let the run go on.
 */
continued: boolean, } | { "type": "step_cancelled", stepId: string, } | { "type": "run_finished", status: RunStatus, durationMs: number, error?: string, usage?: Usage, };

/**
 * Where a workflow in the library comes from.
 */
export type WorkflowSource = "builtin" | "example" | "file";

/**
 * One entry of `GET /api/workflows`.
 */
export type WorkflowSummary = { 
/**
 * `builtin:<name>`, `example:<name>` or `file:<file name>`.
 */
id: string, 
/**
 * The workflow's `name` field, or the file stem when it has none.
 */
name: string, description?: string, source: WorkflowSource, stepCount: number, 
/**
 * Declared input names, in file order.
 */
inputs: Array<string>, };

/**
 * `GET /api/workflows`.
 */
export type WorkflowList = { workflows: Array<WorkflowSummary>, };

/**
 * `GET /api/workflows/{id}`: the file verbatim and, when it is JSON, parsed.
 */
export type WorkflowDocument = { summary: WorkflowSummary, text: string, definition?: unknown, };

/**
 * Body of `POST /api/workflows/validate` and `/plan`: exactly one of `definition` (the workflow
 * as JSON) or `text` (raw file text, so syntax errors come back with line and column).
 */
export type WorkflowBody = { definition?: unknown, text?: string, };

/**
 * `POST /api/workflows/validate`.
 */
export type ValidateResponse = { valid: boolean, diagnostics: Array<Diagnostic>, };

/**
 * `POST /api/workflows/plan`.
 */
export type PlanResponse = { valid: boolean, diagnostics: Array<Diagnostic>, 
/**
 * Present whenever the file's structure could be read, even with errors.
 */
graph?: GraphView, };

/**
 * A workflow drawn as a DAG.
 */
export type GraphView = { name: string, description?: string, nodes: Array<GraphNode>, edges: Array<GraphEdge>, 
/**
 * Step ids per Kahn layer.
 */
layers: Array<Array<string>>, 
/**
 * Estimated provider calls for one run.
 */
estimate: ApiCalls, 
/**
 * False when the workflow has errors: it can be drawn, not run.
 */
runnable: boolean, };

/**
 * A node of the graph: the inputs node, a step, or the output node.
 */
export type GraphNode = { "kind": "inputs", id: string, inputs: Array<InputField>, } | { "kind": "step" } & StepNode | { "kind": "output", id: string, fields: Array<string>, };

/**
 * A step node.
 */
export type StepNode = { id: string, name: string, tool: string, category: Category, color: string, 
/**
 * A Material icon name.
 */
icon: string, description?: string, 
/**
 * One line rendering the tool's main input (`"{{ inputs.query }}"`).
 */
summary?: string, layer: number, condition?: string, forEach?: string, continueOnError: boolean, };

/**
 * A declared workflow input, as the inputs node and the run bar show it.
 */
export type InputField = { name: string, 
/**
 * The declared type: `string`, `number`, `boolean`, `array`, `object`, ….
 */
type: string, required: boolean, default?: unknown, description?: string, };

/**
 * Why an edge exists.
 */
export type EdgeKind = "input" | "reference" | "depends_on" | "then" | "else" | "output";

/**
 * One edge per (source, target, field).
 */
export type GraphEdge = { id: string, source: string, target: string, kind: EdgeKind, 
/**
 * The referenced path (`search.output.results`, `inputs.query`) or the step id for
 * `dependsOn` and branches.
 */
label: string, 
/**
 * Where in the target it sits (`inputs.query`, `condition`, `output.answer`).
 */
field: string, };

/**
 * `GET /api/tools`.
 */
export type ToolCatalog = { tools: Array<ToolView>, categories: Array<CategoryView>, };

/**
 * One tool, declared once in Rust and rendered by the builder's forms and the inspector.
 */
export type ToolView = { name: string, label: string, category: Category, color: string, 
/**
 * A Material icon name.
 */
icon: string, description: string, help: string, 
/**
 * JSON Schema (draft 2020-12) of the step's `inputs`.
 */
inputSchema: unknown, outputs: Array<ToolOutput>, mainInput?: string, apiCalls: ApiCalls, };

/**
 * One output field of a tool.
 */
export type ToolOutput = { name: string, description: string, };

/**
 * A node colour group.
 */
export type CategoryView = { id: Category, label: string, color: string, };

/**
 * `GET /api/config/status`: which backend serves each capability. Never holds a secret.
 */
export type ConfigStatus = { 
/**
 * True when every capability runs on the local default.
 */
offline: boolean, providers: Array<ProviderStatus>, };

/**
 * A capability the providers serve.
 */
export type ProviderId = "embeddings" | "rerank" | "store" | "llm";

/**
 * The backend that serves a capability.
 */
export type Backend = "voyage" | "mongodb" | "local" | "anthropic" | "openai" | "ollama" | "none";

/**
 * One capability's status.
 */
export type ProviderStatus = { id: ProviderId, label: string, backend: Backend, configured: boolean, 
/**
 * Where the setting came from (`VOYAGE_API_KEY from the environment`); never a value.
 */
detail: string, };

/**
 * `POST /api/runs`.
 */
export type StartRun = { 
/**
 * The workflow as JSON.
 */
definition: unknown, inputs?: Record<string, unknown>, 
/**
 * The library id the definition came from, shown in run lists.
 */
workflowId?: string, 
/**
 * Run only this step; the steps it depends on are replayed from `fromRun`.
 */
step?: string, fromRun?: string, };

/**
 * 201 reply to `POST /api/runs`.
 */
export type RunCreated = { runId: string, };

/**
 * 202 reply to `POST /api/runs/{id}/cancel`.
 */
export type CancelAccepted = { runId: string, status: RunState, };

/**
 * A run's status, `running` included.
 */
export type RunState = "running" | "completed" | "failed" | "cancelled";

/**
 * One run in lists.
 */
export type RunSummary = { runId: string, 
/**
 * The workflow's name.
 */
workflow: string, workflowId?: string, status: RunState, 
/**
 * Milliseconds since the Unix epoch.
 */
startedAt: number, durationMs?: number, };

/**
 * `GET /api/runs`: running runs and the last 20 finished, newest first.
 */
export type RunList = { runs: Array<RunSummary>, };

/**
 * A step's state within a run.
 */
export type StepStatus = "pending" | "running" | "retrying" | "completed" | "skipped" | "failed" | "cancelled";

/**
 * One step of a snapshot.
 */
export type StepState = { status: StepStatus, durationMs?: number, summary?: string, error?: string, reason?: string, backend?: string, 
/**
 * The attempt that failed transiently, while retrying.
 */
attempt?: number, outputBytes?: number, };

/**
 * A run folded from its events up to `seq`.
 */
export type RunSnapshot = { runId: string, workflow: string, workflowId?: string, status: RunState, 
/**
 * The last event folded into this snapshot (0 before the first).
 */
seq: number, startedAt: number, durationMs?: number, layers: Array<Array<string>>, 
/**
 * Every step of the workflow, in file order.
 */
steps: Record<string, StepState>, 
/**
 * The run's output when its JSON is at most 16 KB.
 */
output?: unknown, outputBytes?: number, error?: string, usage?: Usage, };

/**
 * `GET /api/runs/{id}/steps/{step}/output`: everything about one step, in full.
 */
export type StepDetail = { stepId: string, status: StepStatus, 
/**
 * The resolved inputs as the tool received them.
 */
inputs?: unknown, output?: unknown, error?: string, reason?: string, durationMs?: number, };

/**
 * `GET /api/runs/{id}/output`: the run's final output in full, whatever its size (events carry
 * it inline only up to 16 KB).
 */
export type RunOutput = { runId: string, status: RunState, 
/**
 * Absent while the run is going, and when it ended without one.
 */
output?: unknown, };

/**
 * The body of every non-2xx reply.
 */
export type ApiErrorBody = { error: ErrorInfo, };

/**
 * What went wrong, for people; never internal causes.
 */
export type ErrorInfo = { 
/**
 * `NOT_FOUND`, `INVALID_WORKFLOW`, `INVALID_INPUTS`, `FORBIDDEN_ORIGIN`, ….
 */
code: string, message: string, 
/**
 * Present on workflow errors.
 */
diagnostics?: Array<Diagnostic>, };

/**
 * Server → client.
 */
export type ServerMessage = { "type": "hello", runs: Array<RunSummary>, } | { "type": "run_created", run: RunSummary, } | { "type": "snapshot", run: RunSnapshot, } | { "type": "event", runId: string, seq: number, event: RunEvent, 
/**
 * On `step_completed` and `run_finished`, when its JSON is at most 16 KB.
 */
output?: unknown, outputBytes?: number, } | { "type": "error", code: string, message: string, runId?: string, };

/**
 * Client → server.
 */
export type ClientMessage = { "type": "subscribe", runId: string, } | { "type": "unsubscribe", runId: string, };
