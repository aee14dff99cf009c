// Hand-written from docs/api.md until the server engineer's generated file replaces it
// (same type names). Do not extend here: change the Rust contract instead.

export type Severity = 'error' | 'warning' | 'info'
export type WorkflowSource = 'builtin' | 'example' | 'file'

export interface WorkflowSummary {
  id: string
  name: string
  description?: string
  source: WorkflowSource
  stepCount: number
  inputs: string[]
}

export interface WorkflowDocument {
  summary: WorkflowSummary
  text: string
  definition?: unknown
}

export interface Diagnostic {
  severity: Severity
  code: string
  message: string
  stepId?: string
  field?: string
  referencedStep?: string
  line?: number
  column?: number
}

export interface ApiCalls {
  embed: number
  rerank: number
  vectorSearch: number
  llm: number
  http: number
}

export interface InputField {
  name: string
  type: string
  required: boolean
  default?: unknown
  description?: string
}

export type GraphNode =
  | { kind: 'inputs'; id: string; inputs: InputField[] }
  | {
      kind: 'step'
      id: string
      name: string
      tool: string
      category: string
      color: string
      icon: string
      description?: string
      summary?: string
      layer: number
      condition?: string
      forEach?: string
      continueOnError: boolean
    }
  | { kind: 'output'; id: string; fields: string[] }

export type EdgeKind = 'input' | 'reference' | 'depends_on' | 'then' | 'else' | 'output'

export interface GraphEdge {
  id: string
  source: string
  target: string
  kind: EdgeKind
  label: string
  field: string
}

export interface GraphView {
  name: string
  description?: string
  nodes: GraphNode[]
  edges: GraphEdge[]
  layers: string[][]
  estimate: ApiCalls
  runnable: boolean
}

export interface ValidateResponse {
  valid: boolean
  diagnostics: Diagnostic[]
}

export interface PlanResponse {
  valid: boolean
  diagnostics: Diagnostic[]
  graph?: GraphView
}

export interface ToolOutput {
  name: string
  description: string
}

export interface ToolView {
  name: string
  label: string
  category: string
  color: string
  icon: string
  description: string
  help: string
  inputSchema: unknown
  outputs: ToolOutput[]
  mainInput?: string
  apiCalls: ApiCalls
}

export interface CategoryView {
  id: string
  label: string
  color: string
}

export interface ProviderStatus {
  id: 'embeddings' | 'rerank' | 'store' | 'llm'
  label: string
  backend: string
  configured: boolean
  detail: string
}

export interface ConfigStatus {
  offline: boolean
  providers: ProviderStatus[]
}

export interface StartRun {
  definition: unknown
  inputs?: Record<string, unknown>
  workflowId?: string
  step?: string
  fromRun?: string
}

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled'
export type StepStatus =
  | 'pending'
  | 'running'
  | 'retrying'
  | 'completed'
  | 'skipped'
  | 'failed'
  | 'cancelled'

export interface Usage {
  embedTokens?: number
  rerankTokens?: number
  llmInputTokens?: number
  llmOutputTokens?: number
  requests?: number
}

export interface RunSummary {
  runId: string
  workflow: string
  workflowId?: string
  status: RunStatus
  startedAt: number
  durationMs?: number
}

export interface StepState {
  status: StepStatus
  durationMs?: number
  summary?: string
  error?: string
  reason?: string
  backend?: string
  attempt?: number
  outputBytes?: number
}

export interface RunSnapshot {
  runId: string
  workflow: string
  workflowId?: string
  status: RunStatus
  seq: number
  startedAt: number
  durationMs?: number
  layers: string[][]
  steps: Record<string, StepState>
  output?: unknown
  outputBytes?: number
  error?: string
  usage?: Usage
}

export interface StepDetail {
  stepId: string
  status: StepStatus
  inputs?: unknown
  output?: unknown
  error?: string
  reason?: string
  durationMs?: number
}

export type RunEvent =
  | { type: 'run_started'; workflow: string; layers: string[][]; totalSteps: number }
  | { type: 'step_started'; stepId: string; name: string; tool: string }
  | { type: 'step_retrying'; stepId: string; attempt: number; error: string; delayMs: number }
  | {
      type: 'step_completed'
      stepId: string
      durationMs: number
      summary: string
      usage?: Usage
      backend?: string
    }
  | { type: 'step_skipped'; stepId: string; reason: string }
  | { type: 'step_failed'; stepId: string; error: string; durationMs: number; continued: boolean }
  | { type: 'step_cancelled'; stepId: string }
  | { type: 'run_finished'; status: RunStatus; durationMs: number; error?: string; usage?: Usage }

export type ServerMessage =
  | { type: 'hello'; runs: RunSummary[] }
  | { type: 'run_created'; run: RunSummary }
  | { type: 'snapshot'; run: RunSnapshot }
  | {
      type: 'event'
      runId: string
      seq: number
      event: RunEvent
      output?: unknown
      outputBytes?: number
    }
  | { type: 'error'; code: string; message: string }

export type ClientMessage = { type: 'subscribe'; runId: string } | { type: 'unsubscribe'; runId: string }

export interface ApiErrorBody {
  error: { code: string; message: string; diagnostics?: Diagnostic[] }
}
