// generated — do not edit; VAI_UPDATE_GENERATED=1 cargo test -p vai-contract

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;

/**
 * A `.vai-workflow.json` file.
 */
export type Workflow = { 
/**
 * Ignored by the engine; editors use it to find this schema.
 */
$schema?: string, 
/**
 * Display name.
 */
name: string, description?: string, 
/**
 * Semantic version of the workflow (e.g. "1.0.0").
 */
version?: string, 
/**
 * Declared inputs, readable as `{{ inputs.<name> }}`.
 */
inputs?: { [key in string]: InputDecl }, 
/**
 * Defaults readable as `{{ defaults.<key> }}`; `db`, `collection` and `model` are used by
 * tools when a step does not set them. `--db`/`--collection` override them.
 */
defaults?: { [key in string]: JsonValue }, 
/**
 * The steps of the DAG.
 */
steps: Array<Step>, 
/**
 * Output mapping, resolved after the run (object, array or a string template). Absent: the
 * whole run context is the output.
 */
output?: JsonValue, 
/**
 * Hints for rendering the output in the CLI.
 */
formatters?: Formatters, 
/**
 * Icon and colour for catalogs; kept, not used by the engine.
 */
branding?: JsonValue, 
/**
 * How the playground's builder lays the workflow out; never affects a run.
 */
ui?: WorkflowUi, } & ({ [key in string]: JsonValue });

/**
 * One declared input.
 */
export type InputDecl = { type: InputType, description?: string, required?: boolean, default?: JsonValue, } & ({ [key in string]: JsonValue });

/**
 * The declared type of a workflow input.
 */
export type InputType = "string" | "number" | "boolean" | "array" | "object";

/**
 * One step of the DAG.
 */
export type Step = { 
/**
 * Unique id, `^[A-Za-z_][A-Za-z0-9_]*$`; other steps read its output as `{{ <id>.output }}`.
 */
id: string, 
/**
 * Display label.
 */
name?: string, description?: string, 
/**
 * The tool this step runs (see docs/tools.md).
 */
tool: string, 
/**
 * The tool's inputs; string values may hold `{{ }}` templates, at any depth.
 */
inputs: { [key in string]: JsonValue }, 
/**
 * Expression; when false the step is skipped ("condition not met").
 */
condition?: string, 
/**
 * Template resolving to an array; the step runs once per element with `item` and `index`.
 */
forEach?: string, 
/**
 * How many `forEach` iterations run at once (default 4, at most 16).
 */
forEachConcurrency?: number, 
/**
 * On failure, record the error and go on.
 */
continueOnError?: boolean, 
/**
 * Steps that must finish first, when no template reference says so.
 */
dependsOn?: Array<string>, 
/**
 * Retry transient failures (rate limits, timeouts, 5xx, network errors).
 */
retry?: RetryPolicy, 
/**
 * Time limit of one attempt, in milliseconds.
 */
timeoutMs?: number, 
/**
 * What undoes this step when the run ends badly after it completed (a failed step, a
 * `fail` step, cancellation, a refused or timed-out `yield`). Compensations run once each,
 * in reverse order of completion.
 */
compensate?: Compensation, } & ({ [key in string]: JsonValue });

/**
 * The call that undoes a completed step. Its templates may read the step's own output
 * (`{{ <id>.output }}`) and whatever the step itself could read; they are resolved when the
 * step completes.
 */
export type Compensation = { 
/**
 * The tool to call, e.g. `http`.
 */
tool: string, inputs: { [key in string]: JsonValue }, retry?: RetryPolicy, 
/**
 * Time limit of one attempt, in milliseconds.
 */
timeoutMs?: number, };

/**
 * Retry policy of a step.
 */
export type RetryPolicy = { 
/**
 * Attempts in all, the first included (default 3, at most 10).
 */
maxAttempts?: number, 
/**
 * Delay before the second attempt (default 500 ms).
 */
initialDelayMs?: number, 
/**
 * Factor applied to the delay after each attempt (default 2).
 */
backoffRate?: number, 
/**
 * Upper bound of one delay (default 30,000 ms).
 */
maxDelayMs?: number, };

/**
 * Output rendering hints.
 */
export type Formatters = { 
/**
 * json, table, markdown, text or csv.
 */
default?: string, title?: string, columns?: Array<string>, 
/**
 * Which output field holds the array rendered as a table.
 */
arrayField?: string, } & ({ [key in string]: JsonValue });

/**
 * The builder's layout: hand-placed node positions and sticky notes. Written only when the
 * person moved something or added a note; a file without it is laid out automatically.
 */
export type WorkflowUi = { 
/**
 * Canvas position of each step, by step id (`__inputs` and `__output` for those nodes).
 */
positions?: { [key in string]: UiPosition }, 
/**
 * Sticky notes on the canvas.
 */
notes?: Array<Note>, } & ({ [key in string]: JsonValue });

/**
 * A point on the builder's canvas. Coordinates are kept as written (`3` stays `3`), since the
 * engine never computes with them.
 */
export type UiPosition = { x: number, y: number, };

/**
 * A sticky note on the builder's canvas.
 */
export type Note = { id: string, x: number, y: number, width?: number, height?: number, 
/**
 * Markdown.
 */
text: string, 
/**
 * A CSS colour.
 */
color?: string, };

/**
 * How strictly to validate.
 */
export type ValidationMode = "strict" | "draft";

export type Severity = "error" | "warning" | "info";

/**
 * Every code a finding carries: stable, listed in docs/workflows.md (a test checks), and a
 * union type in TypeScript.
 */
export type DiagnosticCode = "CIRCULAR_DEPENDENCY" | "DUPLICATE_ID" | "EMPTY_CONDITION" | "FILE_TOO_LARGE" | "INVALID_CONDITION" | "INVALID_DEFINITION" | "INVALID_FOREACH" | "INVALID_FORMATTERS" | "INVALID_INPUT" | "INVALID_INPUT_TYPE" | "INVALID_JSON" | "INVALID_STEP_ID" | "INVALID_TOOL" | "INVALID_UI" | "INVALID_VERSION" | "LIMIT_EXCEEDED" | "MISSING_INPUTS" | "MISSING_REQUIRED_INPUT" | "MISSING_STEPS" | "MISSING_STEP_ID" | "MISSING_STEP_NAME" | "MISSING_TOOL" | "MISSING_WORKFLOW_NAME" | "NOT_UPSTREAM" | "ORPHAN_NODE" | "TEMPLATE_SYNTAX" | "TOO_DEEP" | "UNKNOWN_DEPENDS_ON" | "UNKNOWN_STEP_REF" | "UNKNOWN_WORKFLOW";

/**
 * One finding.
 */
export type Diagnostic = { severity: Severity, 
/**
 * Stable code, e.g. `UNKNOWN_STEP_REF` (listed in docs/workflows.md).
 */
code: DiagnosticCode, message: string, stepId?: string, 
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
 * The group a tool belongs to: the palette, the catalog and docs/tools.md list tools by it, and
 * the builder colours its nodes by it.
 */
export type Category = "retrieval" | "embedding" | "management" | "utility" | "control_flow" | "generation" | "integration";

/**
 * Provider calls made by one execution of a tool (an estimate for dry runs).
 */
export type ApiCalls = { embed: number, rerank: number, vectorSearch: number, llm: number, http: number, };

/**
 * Expected provider calls: once per run, and once per item of each `forEach` or `loop`.
 */
export type Estimate = { fixed: ApiCalls, perItem: ApiCalls, 
/**
 * About what those calls would cost; absent when the registry prices nothing.
 */
cost?: EstimateCost, };

/**
 * The approximate cost (`≈`) of an [`Estimate`]'s calls, at the price table's rates and
 * assumed token counts per call.
 */
export type EstimateCost = { 
/**
 * The calls made once per run; absent when none calls a model.
 */
fixed?: Cost, 
/**
 * The calls made per item of each `forEach` or `loop`.
 */
perItem?: Cost, 
/**
 * What the figures assume, in a sentence.
 */
assumptions: string, };

/**
 * Token and request counts a tool reports for cost display. Never stored in the context.
 */
export type Usage = { embedTokens?: number, rerankTokens?: number, llmInputTokens?: number, llmOutputTokens?: number, requests?: number, 
/**
 * What the tokens cost at the pricing table's rates (see [`Cost`]).
 */
cost?: Cost, };

/**
 * What a step's (or a run's) model calls cost, from the pricing table (or `.vai.json`'s
 * `pricing`). A model with no known price is never counted as free: `usd` is `null` when
 * nothing was priced, and `unpriced` names the models left out.
 */
export type Cost = { 
/**
 * US dollars; `null` when no model of the call had a known price.
 */
usd: number | null, 
/**
 * Dollars per million input (or embedding / rerank) tokens, when one rate applied.
 */
inputPerMTok?: number, 
/**
 * Dollars per million output tokens, when one rate applied.
 */
outputPerMTok?: number, 
/**
 * The date of the prices used (`2026-11-01`), or `".vai.json"` for an override.
 */
pricedAt: string, 
/**
 * Models with no known price, left out of `usd`.
 */
unpriced?: Array<string>, 
/**
 * Why `usd` is `null` or partial, in words.
 */
reason?: string, };

/**
 * How a run ended.
 */
export type RunStatus = "completed" | "failed" | "cancelled" | "waiting";

/**
 * How a paused run goes on.
 */
export type ResumeAction = "next" | "continue";

/**
 * Something that happened during a run, in order.
 */
export type RunEvent = { "type": "run_started", workflow: string, 
/**
 * Step ids per Kahn layer.
 */
layers: Array<Array<string>>, totalSteps: number, } | { "type": "paused", stepId: string, name: string, tool: string, 
/**
 * The step is a breakpoint (else the run pauses before every step).
 */
breakpoint: boolean, } | { "type": "resumed", stepId: string, action: ResumeAction, 
/**
 * The breakpoints from now on, when this resume changed them.
 */
breakpoints?: Array<string>, } | { "type": "step_started", stepId: string, name: string, tool: string, } | { "type": "step_text", stepId: string, delta: string, } | { "type": "step_retrying", stepId: string, attempt: number, error: string, delayMs: number, } | { "type": "item_ended", stepId: string, index: number, durationMs: number, error?: string, } | { "type": "step_completed", stepId: string, durationMs: number, 
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
continued: boolean, } | { "type": "step_cancelled", stepId: string, } | { "type": "waiting", stepId: string, message: string, 
/**
 * JSON Schema of the answer (an object).
 */
expects: JsonValue, 
/**
 * When the wait times out, in milliseconds since the Unix epoch.
 */
deadlineMs?: number, } | { "type": "compensating", stepId: string, tool: string, } | { "type": "compensated", stepId: string, ok: boolean, error?: string, } | { "type": "child", stepId: string, item?: number, event: RunEvent, } | { "type": "run_finished", status: RunStatus, durationMs: number, error?: string, usage?: Usage, };

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
inputs: Array<string>, 
/**
 * Built-ins and examples: open them and "Save as" a file.
 */
readOnly: boolean, 
/**
 * Why the file could not be read or parsed (too large, unreadable, not JSON); such files
 * are still listed.
 */
error?: string, };

/**
 * `GET /api/workflows`.
 */
export type WorkflowList = { workflows: Array<WorkflowSummary>, };

/**
 * One starting point of the "New workflow" menu (`vai workflow init --template <id>`).
 */
export type WorkflowStarter = { 
/**
 * `search`, `rag` or `ingest`.
 */
id: string, label: string, description: string, 
/**
 * The new workflow, as `vai workflow init` writes it.
 */
definition: JsonValue, };

/**
 * `GET /api/workflows/starters`.
 */
export type StarterList = { starters: Array<WorkflowStarter>, };

/**
 * `GET /api/workflows/{id}`: the file verbatim and, when it is JSON, parsed.
 */
export type WorkflowDocument = { summary: WorkflowSummary, text: string, definition?: JsonValue, 
/**
 * The first 16 hex digits of the SHA-256 of the file's bytes: what `save` compares
 * `baseVersion` with.
 */
version: string, };

/**
 * Body of `POST /api/workflows/validate` and `/plan`: exactly one of `definition` (the workflow
 * as JSON) or `text` (raw file text, so syntax errors come back with line and column).
 */
export type WorkflowBody = { definition?: JsonValue, text?: string, 
/**
 * `draft` for a half-built workflow in the builder (missing pieces are warnings or infos);
 * `strict` (the default) when it must run.
 */
mode?: ValidationMode, };

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
 * Expected provider calls: per run, and per item of each `forEach` or `loop` (the same
 * estimate `vai workflow run --dry-run` prints).
 */
estimate: Estimate, 
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
summary?: string, condition?: string, forEach?: string, continueOnError: boolean, };

/**
 * A declared workflow input, as the inputs node and the run bar show it.
 */
export type InputField = { name: string, type: InputType, required: boolean, default?: JsonValue, description?: string, };

/**
 * Why an edge exists.
 */
export type EdgeKind = "input" | "reference" | "depends_on" | "then" | "else" | "route" | "output";

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
 * Body of `POST /api/workflows/references` and `/format`.
 */
export type DefinitionBody = { definition: JsonValue, };

/**
 * `POST /api/workflows/references`.
 */
export type ReferencesResponse = { references: Array<ReferenceSite>, };

/**
 * One reference, where it is written and what it points to.
 */
export type ReferenceSite = { 
/**
 * RFC 6901 pointer to the string value holding it (`/steps/2/inputs/query`).
 */
pointer: string, 
/**
 * The step holding it; absent in the output mapping.
 */
stepId?: string, 
/**
 * As diagnostics name fields: `inputs.query`, `inputs.arrays[1]`, `condition`,
 * `dependsOn[0]`, `inputs.then[1]`, `output.answer`.
 */
field: string, kind: ReferenceKind, 
/**
 * The normalised path (`search.output.results`, `inputs.query`); for `id`, the id.
 */
path: string, 
/**
 * The path's first segment (`search`, `inputs`, `defaults`, `item`, `steps`, …).
 */
root: string, 
/**
 * The node it points to: a step id, or `__inputs` for `inputs.*`; absent for defaults,
 * locals and unknown ids.
 */
target?: string, 
/**
 * UTF-16 offsets of the path text within the string value.
 */
start: number, end: number, 
/**
 * UTF-16 offsets of the identifier naming the target (for `steps.x.output`, the `x`).
 */
rootStart: number, rootEnd: number, 
/**
 * UTF-16 offsets of the enclosing `{{ … }}`, braces included (`template` kind only).
 */
templateStart?: number, templateEnd?: number, 
/**
 * The string is exactly this one template (modulo surrounding whitespace), this one bare
 * expression, or this id.
 */
whole: boolean, };

/**
 * How a reference is written.
 */
export type ReferenceKind = "template" | "expression" | "id";

/**
 * Body of `POST /api/workflows/rewrite`: renames of steps and of inputs.
 */
export type RewriteRequest = { definition: JsonValue, 
/**
 * Old step id → new step id.
 */
steps?: { [key in string]: string }, 
/**
 * Old input name → new input name.
 */
inputs?: { [key in string]: string }, };

/**
 * `POST /api/workflows/rewrite`.
 */
export type RewriteResponse = { definition: JsonValue, 
/**
 * Pointers of the string values (and keys' parents) that were rewritten.
 */
changed: Array<string>, };

/**
 * Body of `POST /api/workflows/complete`.
 */
export type CompleteRequest = { definition: JsonValue, 
/**
 * The step being edited; absent for the output mapping.
 */
stepId?: string, 
/**
 * As in diagnostics: `inputs.query`, `condition`, `forEach`, `output.answer`.
 */
field: string, 
/**
 * The field's text as it is being edited.
 */
text: string, 
/**
 * UTF-16 offset of the cursor in `text`.
 */
cursor: number, };

/**
 * `POST /api/workflows/complete`: `[from, to)` of `text` is what the chosen item replaces.
 */
export type CompleteResponse = { from: number, to: number, items: Array<Completion>, };

/**
 * One completion: `insert` replaces the response's `[from, to)`.
 */
export type Completion = { label: string, insert: string, kind: CompletionKind, 
/**
 * Type and description of an input, a step's tool, an output field's description, ….
 */
detail?: string, };

/**
 * What a completion names.
 */
export type CompletionKind = "input" | "default" | "step" | "output" | "local" | "keyword";

/**
 * `POST /api/workflows/format`.
 */
export type FormatResponse = { text: string, };

/**
 * Body of `POST /api/workflows/save`.
 */
export type SaveRequest = { 
/**
 * `<stem>` or `<stem>.vai-workflow.json`; a name, never a path.
 */
fileName: string, definition: JsonValue, 
/**
 * The `version` the editor opened; absent for a new file.
 */
baseVersion?: string, 
/**
 * Write even when the file changed on disk or already exists.
 */
overwrite?: boolean, };

/**
 * `POST /api/workflows/save`.
 */
export type SaveResponse = { 
/**
 * `file:<name>`.
 */
id: string, version: string, summary: WorkflowSummary, };

/**
 * Body of `POST /api/runs/{id}/test-case`.
 */
export type TestCaseRequest = { 
/**
 * The case name, `^[A-Za-z0-9_-]{1,64}$`.
 */
name: string, overwrite?: boolean, };

/**
 * `POST /api/runs/{id}/test-case`.
 */
export type TestCaseSaved = { fileName: string, 
/**
 * Relative to the start directory: `tests/<workflow>.<case>.test.json`.
 */
path: string, text: string, };

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
 * JSON Schema (draft 2020-12 subset) of the step's `inputs`, with `format` widget hints.
 */
inputSchema: InputSchema, outputs: Array<ToolOutputField>, mainInput?: string, apiCalls: ApiCalls, 
/**
 * What a step of this tool is doing in a RAG pipeline, for the inspector's "What is
 * happening here"; absent for tools without a note.
 */
explain?: ToolExplanation, };

/**
 * The schema of a step's `inputs` object.
 */
export type InputSchema = { type: ObjectType, 
/**
 * Every input the tool reads, in the order forms show them.
 */
properties: { [key in string]: PropertySchema }, 
/**
 * Inputs a step must set.
 */
required: Array<string>, };

/**
 * The `"object"` of a schema's `type`.
 */
export type ObjectType = "object";

/**
 * One input (or a nested member of one).
 */
export type PropertySchema = { 
/**
 * Absent: any JSON value.
 */
type?: SchemaType, description?: string, 
/**
 * The value the tool uses when the step leaves the input out.
 */
default?: JsonValue, 
/**
 * The accepted values.
 */
enum?: Array<JsonValue>, 
/**
 * The schema of an array's elements.
 */
items?: PropertySchema, properties?: { [key in string]: PropertySchema }, required?: Array<string>, additionalProperties?: AdditionalProperties, minimum?: number, maximum?: number, minItems?: number, maxItems?: number, pattern?: string, 
/**
 * Typical values, for hints.
 */
examples?: Array<JsonValue>, 
/**
 * How the builder's form edits the value; absent: by its type.
 */
format?: WidgetFormat, };

/**
 * `"type"`: one JSON type or several.
 */
export type SchemaType = JsonType | Array<JsonType>;

/**
 * A JSON type name.
 */
export type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/**
 * `"additionalProperties"`: allowed or not, or the schema of every other member.
 */
export type AdditionalProperties = boolean | PropertySchema;

/**
 * A widget hint for the builder's forms.
 */
export type WidgetFormat = "multiline" | "expression" | "step-ids" | "uri" | "routes" | "metrics" | "tool-names";

/**
 * One output field of a tool.
 */
export type ToolOutputField = { name: string, description: string, };

/**
 * A few plain sentences on what a step of a tool is doing, and the `vai explain` topic that says
 * more (the same texts as the `explain` tool).
 */
export type ToolExplanation = { 
/**
 * The topic's key, as `vai explain <topic>` takes it ("reranking").
 */
topic: string, 
/**
 * The topic's title ("Reranking").
 */
title: string, text: string, };

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
 * `GET /api/pricing`: what model calls cost as runs price them — vai's price table with the
 * project's `.vai.json` `pricing` over it. Dollars per million tokens.
 */
export type PricingTable = { 
/**
 * The date the table's prices were last compared with the vendors' pages.
 */
pricedAt: string, models: Array<ModelPriceView>, };

/**
 * One model's price.
 */
export type ModelPriceView = { model: string, 
/**
 * `voyage`, `openai`, `anthropic` or `local`; absent for a model only `.vai.json` prices.
 */
vendor?: string, 
/**
 * `embedding`, `rerank` or `llm`; absent for a model only `.vai.json` prices.
 */
use?: string, inputPerMTok: number, 
/**
 * 0 for embedding and rerank models, which have no output tokens.
 */
outputPerMTok: number, 
/**
 * The table's date, `local` (runs on this machine, no bill) or `.vai.json`.
 */
pricedAt: string, 
/**
 * The vendor's pricing page the figure was read from.
 */
source?: string, };

/**
 * `POST /api/runs`.
 */
export type StartRun = { 
/**
 * The workflow as JSON.
 */
definition: JsonValue, inputs?: { [key in string]: JsonValue }, 
/**
 * The library id the definition came from, shown in run lists.
 */
workflowId?: string, 
/**
 * Run only this step; the steps it depends on are replayed from `fromRun`.
 */
step?: string, fromRun?: string, 
/**
 * Run step by step: pause before steps until `POST /api/runs/{id}/resume` (at most 10000
 * ms of pace; breakpoints must name steps of the workflow).
 */
stepThrough?: StepThrough, };

/**
 * Where a step-through run pauses and how fast it goes: as a run is started with them (the
 * playground's `StartRun.stepThrough`), and as they are now (Next turns `pauseEach` on,
 * Continue off; a resume may replace the breakpoints). Each field may be left out of JSON.
 */
export type StepThrough = { 
/**
 * Pause before every step that runs.
 */
pauseEach: boolean, 
/**
 * Step ids to pause before, whatever `pauseEach` says; sorted, without repeats.
 */
breakpoints: Array<string>, 
/**
 * Each step is shown running for at least this long: its end is reported no earlier (0:
 * at once). Its reported duration stays its own.
 */
paceMs: number, };

/**
 * 201 reply to `POST /api/runs`.
 */
export type RunCreated = { runId: string, };

/**
 * 202 reply to `POST /api/runs/{id}/cancel`.
 */
export type CancelAccepted = { runId: string, status: RunState, };

/**
 * One resume (the body of the playground's `POST /api/runs/{id}/resume`): the action, and the
 * breakpoints from now on when they change.
 */
export type Resume = { action: ResumeAction, breakpoints?: Array<string>, };

/**
 * 202 reply to `POST /api/runs/{id}/resume`.
 */
export type ResumeAccepted = { runId: string, status: RunState, 
/**
 * The step that goes ahead.
 */
stepId: string, action: ResumeAction, };

/**
 * The step a step-through run waits before.
 */
export type PausedStep = { stepId: string, 
/**
 * It is a breakpoint (else the run pauses before every step).
 */
breakpoint: boolean, 
/**
 * When the pause began, in milliseconds since the Unix epoch; it is cancelled 10 minutes
 * later unless resumed.
 */
since: number, };

/**
 * A run's status, `running` included.
 */
export type RunState = "running" | "completed" | "failed" | "cancelled" | "waiting" | "interrupted";

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
export type StepStatus = "pending" | "running" | "retrying" | "completed" | "skipped" | "failed" | "cancelled" | "waiting";

/**
 * One step of a snapshot.
 */
export type StepState = { status: StepStatus, durationMs?: number, summary?: string, error?: string, reason?: string, backend?: string, 
/**
 * The attempt that failed transiently, while retrying.
 */
attempt?: number, outputBytes?: number, 
/**
 * The tokens a completed step used and what they cost (the canvas's cost overlay).
 */
usage?: Usage, 
/**
 * Its compensation, once the run ended badly after it completed.
 */
compensation?: CompensationState, 
/**
 * The text the step has written so far while it runs (a `generate` answer arriving), at
 * most [`StepState::TEXT_LIMIT`] bytes; gone once it ends (its output holds the whole).
 */
text?: string, };

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
output?: JsonValue, outputBytes?: number, error?: string, usage?: Usage, 
/**
 * A step-through run's settings as they are now.
 */
stepThrough?: StepThrough, 
/**
 * The step the run waits before, while it is paused.
 */
paused?: PausedStep, 
/**
 * What a waiting run waits for.
 */
waiting?: WaitingFor, };

/**
 * `GET /api/runs/{id}/steps/{step}/output`: everything about one step, in full.
 */
export type StepDetail = { stepId: string, status: StepStatus, 
/**
 * The resolved inputs as the tool received them; while the run is paused before the step,
 * as it will receive them.
 */
inputs?: JsonValue, output?: JsonValue, error?: string, reason?: string, durationMs?: number, };

/**
 * `GET /api/runs/{id}/output`: the run's final output in full, whatever its size (events carry
 * it inline only up to 16 KB).
 */
export type RunOutput = { runId: string, status: RunState, 
/**
 * Absent while the run is going, and when it ended without one.
 */
output?: JsonValue, };

/**
 * The body of every non-2xx reply.
 */
export type ApiErrorBody = { error: ErrorInfo, };

/**
 * Every code a local server answers with, over HTTP (`{error: {code, message}}`) and on the
 * run socket (`error {code, message}`): the playground's and `vai mcp --http`'s transport layer.
 * docs/api.md lists each (a test checks).
 */
export type ApiErrorCode = "BAD_REQUEST" | "INVALID_WORKFLOW" | "INVALID_INPUTS" | "INVALID_ID" | "RESERVED_ID" | "ID_TAKEN" | "INVALID_NAME" | "UNAUTHORIZED" | "FORBIDDEN_ORIGIN" | "NOT_FOUND" | "CONFLICT" | "NO_DIRECTORY" | "NOT_PAUSED" | "INVALID_ANSWER" | "NOT_WAITING" | "PAYLOAD_TOO_LARGE" | "UNREADABLE" | "NOT_EXPORTABLE" | "TOO_MANY_RUNS" | "INTERNAL" | "HISTORY_UNAVAILABLE" | "TOO_MANY_SOCKETS" | "TOO_MANY_SESSIONS" | "NOT_AVAILABLE" | "BAD_MESSAGE" | "BAD_QUESTION" | "BUSY";

/**
 * What went wrong, for people; never internal causes.
 */
export type ErrorInfo = { code: ApiErrorCode, message: string, 
/**
 * Present on workflow errors.
 */
diagnostics?: Array<Diagnostic>, 
/**
 * Present on `INVALID_ANSWER`: each field of the answer that is wrong.
 */
fields?: Array<FieldError>, };

/**
 * A field of an answer that does not satisfy the schema.
 */
export type FieldError = { field: string, message: string, };

/**
 * Where a completed step's compensation is.
 */
export type CompensationState = "compensating" | "compensated" | "compensation_failed";

/**
 * What a waiting run waits for.
 */
export type WaitingFor = { 
/**
 * The `yield` step; for one inside a sub-workflow, the `workflow` step ids before it.
 */
stepId: string, within: Array<string>, message: string, 
/**
 * JSON Schema of the answer.
 */
expects: JsonValue, deadlineMs?: number, };

/**
 * `POST /api/runs/{id}/input`: the answer to the `yield` step the run waits at.
 */
export type RunInput = { 
/**
 * The waiting step, when the client wants to be sure it answers that one.
 */
stepId?: string, 
/**
 * The answer: an object that satisfies the step's `expects`.
 */
input: { [key in string]: JsonValue }, };

/**
 * 202 reply to `POST /api/runs/{id}/input` (the run goes on), or to a resume of an
 * interrupted run (`POST /api/runs/{id}/continue`).
 */
export type InputAccepted = { runId: string, status: RunState, };

/**
 * One past run in `GET /api/history`.
 */
export type HistoryEntry = { runId: string, workflow: string, workflowId?: string, 
/**
 * `running`, `waiting`, `interrupted`, `completed`, `failed`, `cancelled` or `unreadable`.
 */
status: string, startedAt: number, durationMs?: number, usage?: Usage, 
/**
 * The inputs in one short line.
 */
inputs: string, 
/**
 * The definition's version.
 */
hash?: string, 
/**
 * The run this one restarted from.
 */
from?: RestartedFrom, error?: string, };

/**
 * Where a restarted run came from.
 */
export type RestartedFrom = { runId: string, step: string, };

/**
 * `GET /api/history[?workflowId=&status=&since=]`: journaled runs, newest first.
 */
export type HistoryList = { runs: Array<HistoryEntry>, };

/**
 * `GET /api/history/{id}`: what a past run ran — its definition as it ran (even when its file
 * is gone) and inputs — and how the workflow differs now. Its steps are in
 * `GET /api/runs/{id}` and `GET /api/runs/{id}/steps/{step}/output`, as for any run.
 */
export type HistoryRecord = { run: HistoryEntry, definition: JsonValue, inputs: { [key in string]: JsonValue }, 
/**
 * How the library's workflow differs now from what ran (empty: unchanged); absent when
 * the run's workflow is not in the library any more.
 */
changedSince?: Array<string>, };

/**
 * `POST /api/history/{id}/restart`: run again from `from`, the steps upstream replaying the
 * past run's outputs. `definition` (an edited workflow) and `inputs` replace the run's own.
 */
export type RestartRun = { from: string, definition?: JsonValue, inputs?: { [key in string]: JsonValue }, };

/**
 * Two runs compared.
 */
export type RunDiff = { workflow: string, a: RunSide, b: RunSide, 
/**
 * How B's definition differs from A's (empty: the same version).
 */
workflowChanges: Array<string>, 
/**
 * Run inputs that differ.
 */
inputs: Array<FieldChange>, 
/**
 * Every step of either version: B's order, then the steps only A had.
 */
steps: Array<StepDiff>, };

/**
 * One run of a diff, in brief.
 */
export type RunSide = { runId: string, status: string, startedAt: number, durationMs?: number, costUsd?: number, hash?: string, };

/**
 * One step of a diff.
 */
export type StepDiff = { id: string, name: string, tool: string, 
/**
 * `same`, `changed`, `added` (only in B's workflow) or `removed` (only in A's).
 */
change: string, statusA?: string, statusB?: string, 
/**
 * Resolved inputs that differ, by top-level field.
 */
inputs: Array<FieldChange>, outputChanged: boolean, 
/**
 * For an output holding a list of results: how it changed.
 */
results?: ResultsDiff, 
/**
 * Output fields (other than a result list) that differ.
 */
outputs: Array<FieldChange>, durationA?: number, durationB?: number, costA?: number, costB?: number, };

/**
 * A field whose value differs (`a` or `b` absent: the field is only on one side).
 */
export type FieldChange = { field: string, a?: JsonValue, b?: JsonValue, };

/**
 * How a list of results changed.
 */
export type ResultsDiff = { 
/**
 * The field holding the list (`results`, or empty for an output that is the list).
 */
field: string, 
/**
 * In B, not in A (by B's rank).
 */
entered: Array<ResultMove>, 
/**
 * In A, not in B (by A's rank).
 */
left: Array<ResultMove>, 
/**
 * In both, at another rank or with another score (by B's rank).
 */
moved: Array<ResultMove>, 
/**
 * In both at the same rank with the same score.
 */
unchanged: number, };

/**
 * One result of a list in either run: where it ranked (1 = first) and its score.
 */
export type ResultMove = { 
/**
 * What identifies it across runs (`_id`, `id`, else its source and text).
 */
key: string, 
/**
 * What a person recognises it by (its source or title, else its text's beginning).
 */
label: string, rankA?: number, rankB?: number, scoreA?: number, scoreB?: number, };

/**
 * How a turn finds its answer.
 */
export type ChatMode = "pipeline" | "agent";

/**
 * What the assistant is doing now.
 */
export type TurnState = "retrieving" | "thinking" | "calling_tools" | "answering";

/**
 * How a turn ended.
 */
export type TurnStatus = "done" | "failed" | "cancelled";

/**
 * A document an answer may cite as `[n]`.
 */
export type ChatSource = { 
/**
 * The citation number, from 1.
 */
index: number, 
/**
 * What the document is called: its `source`, title or id.
 */
title: string, 
/**
 * The document's text (cut to 8 KB).
 */
text: string, 
/**
 * Relevance after reranking (or the vector score without it).
 */
score?: number, 
/**
 * The collection it came from, when known.
 */
collection?: string, 
/**
 * The passages of `text` the answer quotes (a grounded offline answer), in its order.
 */
passages?: Array<string>, };

/**
 * How an answer was made.
 */
export type AnswerMethod = "generated" | "extractive" | "declined";

/**
 * One tool call of an agent-mode turn.
 */
export type ChatToolCall = { 
/**
 * The model's id for the call.
 */
id: string, 
/**
 * The tool as the model named it (`vai_query`).
 */
name: string, 
/**
 * The arguments it ran with (defaults filled in).
 */
arguments: JsonValue, 
/**
 * What it is doing, for people: `Searching api_docs for "auth"`.
 */
label: string, ok: boolean, 
/**
 * One line on the result (`5 results, top score 0.91`) or the error.
 */
summary: string, 
/**
 * The tool's output when its JSON is at most 16 KB.
 */
output?: JsonValue, durationMs: number, };

/**
 * Where the time of a turn went.
 */
export type ChatTimings = { 
/**
 * Retrieval (pipeline) or tool calls (agent).
 */
retrievalMs: number, 
/**
 * Waiting for and reading the model.
 */
generationMs: number, totalMs: number, };

/**
 * One question and its answer, as kept in the history.
 */
export type ChatTurn = { id: string, question: string, 
/**
 * The answer as far as it came (empty when the turn failed before any text).
 */
answer: string, status: TurnStatus, error?: string, mode: ChatMode, 
/**
 * A notice the turn carried (agent mode fell back to the pipeline, …).
 */
notice?: string, sources: Array<ChatSource>, 
/**
 * How the answer was made; absent in turns saved before it was recorded.
 */
method?: AnswerMethod, toolCalls: Array<ChatToolCall>, 
/**
 * The LLM provider and model that answered.
 */
provider: string, model: string, usage: Usage, timings: ChatTimings, 
/**
 * Milliseconds since the Unix epoch.
 */
startedAt: number, };

/**
 * A conversation: its turns, oldest first.
 */
export type ChatSession = { id: string, 
/**
 * The first question, cut to 80 characters.
 */
title: string, createdAt: number, updatedAt: number, turns: Array<ChatTurn>, };

/**
 * A session as lists show it.
 */
export type ChatSessionSummary = { id: string, title: string, createdAt: number, updatedAt: number, turnCount: number, };

/**
 * `GET /api/chat/sessions`: newest first.
 */
export type ChatSessionList = { sessions: Array<ChatSessionSummary>, };

/**
 * What a turn reports while it runs; `turn_finished` is always last.
 */
export type ChatEvent = { "type": "turn_started", sessionId: string, turnId: string, mode: ChatMode, provider: string, model: string, } | { "type": "state", state: TurnState, label: string, } | { "type": "notice", message: string, } | { "type": "sources", sources: Array<ChatSource>, } | { "type": "tool_call_started", id: string, name: string, arguments: JsonValue, label: string, } | { "type": "tool_call_finished", call: ChatToolCall, } | { "type": "text", delta: string, } | { "type": "turn_finished", turn: ChatTurn, };

/**
 * A question and how to answer it (the playground's `chat_ask`; the CLI's flags).
 */
export type ChatAsk = { 
/**
 * Continue this session; a new one when absent.
 */
sessionId?: string, question: string, mode?: ChatMode, db?: string, collection?: string, 
/**
 * Another model of the configured provider.
 */
model?: string, maxContextDocs?: number, rerank?: boolean, 
/**
 * Agent mode may call tools that change data (`vai_ingest`); off when absent.
 */
allowWrites?: boolean, };

/**
 * `GET /api/chat/config`: what answers and where it looks.
 */
export type ChatConfig = { 
/**
 * No LLM is configured or present: chat cannot answer, `hint` says how to fix it.
 */
available: boolean, provider: string, model: string, 
/**
 * For people: `anthropic · claude-…`, or the local model's label.
 */
label: string, 
/**
 * Whether agent mode can run (the model calls tools).
 */
supportsTools: boolean, 
/**
 * Models of the provider to choose from (the configured one first).
 */
models: Array<string>, db: string, collection: string, mode: ChatMode, 
/**
 * Where sessions are kept: `local`, `mongodb` or `memory`.
 */
history: string, 
/**
 * The longest question answered, in bytes (UTF-8); a longer one is recorded as a failed
 * turn.
 */
maxQuestionBytes: number, hint?: string, };

/**
 * Server → client.
 */
export type ServerMessage = { "type": "hello", runs: Array<RunSummary>, } | { "type": "run_created", run: RunSummary, } | { "type": "snapshot", run: RunSnapshot, } | { "type": "event", runId: string, seq: number, event: RunEvent, 
/**
 * On `step_completed` and `run_finished`, when its JSON is at most 16 KB.
 */
output?: JsonValue, outputBytes?: number, } | { "type": "chat", sessionId: string, event: ChatEvent, } | { "type": "error", code: ApiErrorCode, message: string, runId?: string, sessionId?: string, };

/**
 * Client → server.
 */
export type ClientMessage = { "type": "subscribe", runId: string, } | { "type": "unsubscribe", runId: string, } | { "type": "chat_ask", ask: ChatAsk, } | { "type": "chat_cancel", sessionId: string, };
