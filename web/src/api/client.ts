//! Typed fetch wrappers for every route in docs/api.md. Failures reject with an `ApiError`
//! carrying the server's `{code, message}` (and diagnostics for workflow errors, the bad fields
//! of a refused answer). A 401 (the
//! page was opened without the access token `vai playground` printed) is also told to the
//! `onDenied` the client was created with, so the shell can say what to do instead of showing
//! broken panels.
import type {
  ApiErrorCode,
  ChatConfig,
  ChatSession,
  ChatSessionList,
  PricingTable,
  CompleteRequest,
  CompleteResponse,
  ConfigStatus,
  FormatResponse,
  JsonValue,
  ReferencesResponse,
  RewriteRequest,
  RewriteResponse,
  SaveRequest,
  SaveResponse,
  StarterList,
  TestCaseRequest,
  TestCaseSaved,
  Diagnostic,
  FieldError,
  InputAccepted,
  PlanResponse,
  RunOutput,
  RunSnapshot,
  CancelAccepted,
  Resume,
  ResumeAccepted,
  RunCreated,
  RunInput,
  StartRun,
  StepDetail,
  ToolCatalog,
  ValidateResponse,
  WorkflowBody,
  WorkflowDocument,
  WorkflowList,
  RunList,
  HistoryList,
  HistoryRecord,
  RestartRun,
  RunDiff,
} from './types'

/** A server's code, or what the client says when no server answered (or answered without one). */
export type ErrorCode = ApiErrorCode | 'UNREACHABLE' | `HTTP_${number}`

export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly diagnostics: Diagnostic[]
  /** `INVALID_ANSWER`: each field of the answer that is wrong. */
  readonly fields: FieldError[]
  constructor(code: ErrorCode, message: string, status = 0, diagnostics: Diagnostic[] = [], fields: FieldError[] = []) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.diagnostics = diagnostics
    this.fields = fields
  }
}

async function request<T>(onDenied: () => void, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError('UNREACHABLE', 'Cannot reach the vai playground server. Is `vai playground` still running?')
  }
  const text = await response.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  if (response.status === 401) onDenied()
  if (!response.ok) {
    const error = (json as { error?: { code?: ApiErrorCode; message?: string; diagnostics?: Diagnostic[]; fields?: FieldError[] } } | undefined)?.error
    throw new ApiError(
      error?.code ?? `HTTP_${response.status}`,
      error?.message ?? `The server answered ${response.status} ${response.statusText}`.trim(),
      response.status,
      error?.diagnostics ?? (json as { diagnostics?: Diagnostic[] } | undefined)?.diagnostics ?? [],
      error?.fields ?? [],
    )
  }
  return json as T
}

const enc = encodeURIComponent

/** `GET /api/history`'s filters; each is left out of the query when absent. */
export type HistoryQuery = {
  workflowId?: string
  status?: string
  /** Milliseconds since the Unix epoch. */
  since?: number
}

/** `?a=1&b=2` of the values that are set (empty when none is). */
function queryString(params: Record<string, string | number | undefined>): string {
  const set = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
  return set.length === 0 ? '' : `?${new URLSearchParams(set.map(([k, v]) => [k, String(v)])).toString()}`
}

/**
 * A plan refused with diagnostics (an invalid document; text that is not JSON, with the line
 * and column) is still the plan's answer: the caller shows the diagnostics, not a failure.
 */
async function planned(plan: Promise<PlanResponse>): Promise<PlanResponse> {
  try {
    return await plan
  } catch (e) {
    if (e instanceof ApiError && e.diagnostics.length > 0) return { valid: false, diagnostics: e.diagnostics }
    throw e
  }
}

/** The API client; `onDenied` is called on every 401 (the page lacks the access token). */
export function createApi(onDenied: () => void = () => {}) {
  const call = <T>(method: string, path: string, body?: unknown) => request<T>(onDenied, method, path, body)
  return {
    listWorkflows: () => call<WorkflowList>('GET', '/api/workflows'),
    starters: () => call<StarterList>('GET', '/api/workflows/starters'),
    getWorkflow: (id: string) => call<WorkflowDocument>('GET', `/api/workflows/${enc(id)}`),
    validate: (body: WorkflowBody) => call<ValidateResponse>('POST', '/api/workflows/validate', body),
    plan: (body: WorkflowBody) => planned(call<PlanResponse>('POST', '/api/workflows/plan', body)),
    tools: () => call<ToolCatalog>('GET', '/api/tools'),
    configStatus: () => call<ConfigStatus>('GET', '/api/config/status'),
    /** The price table costs are counted with, `.vai.json` overrides included. */
    pricing: () => call<PricingTable>('GET', '/api/pricing'),
    startRun: (body: StartRun) => call<RunCreated>('POST', '/api/runs', body),
    listRuns: () => call<RunList>('GET', '/api/runs'),
    getRun: (runId: string) => call<RunSnapshot>('GET', `/api/runs/${enc(runId)}`),
    cancelRun: (runId: string) => call<CancelAccepted>('POST', `/api/runs/${enc(runId)}/cancel`),
    resumeRun: (runId: string, body: Resume) => call<ResumeAccepted>('POST', `/api/runs/${enc(runId)}/resume`, body),
    /** The answer to the `yield` step a waiting run waits at; the run goes on on the socket. */
    submitRunInput: (runId: string, body: RunInput) => call<InputAccepted>('POST', `/api/runs/${enc(runId)}/input`, body),
    continueRun: (runId: string) => call<InputAccepted>('POST', `/api/runs/${enc(runId)}/continue`),
    runOutput: (runId: string) => call<RunOutput>('GET', `/api/runs/${enc(runId)}/output`),
    stepOutput: (runId: string, stepId: string) => call<StepDetail>('GET', `/api/runs/${enc(runId)}/steps/${enc(stepId)}/output`),
    // The run history (docs/api.md, "Run history"): journaled runs, finished ones included; their
    // steps are read through getRun and stepOutput like a live run's.
    history: (query: HistoryQuery = {}) => call<HistoryList>('GET', `/api/history${queryString(query)}`),
    historyRecord: (runId: string) => call<HistoryRecord>('GET', `/api/history/${enc(runId)}`),
    /** 400 BAD_REQUEST when the two runs are of unrelated workflows. */
    diffRuns: (a: string, b: string) => call<RunDiff>('GET', `/api/history/diff${queryString({ a, b })}`),
    /** A new live run (followed on the socket) that replays the past run's steps upstream of `from`. */
    restartRun: (runId: string, body: RestartRun) => call<RunCreated>('POST', `/api/history/${enc(runId)}/restart`, body),
    // The builder's routes (builder-api.md §3).
    references: (definition: JsonValue) => call<ReferencesResponse>('POST', '/api/workflows/references', { definition }),
    rewrite: (body: RewriteRequest) => call<RewriteResponse>('POST', '/api/workflows/rewrite', body),
    complete: (body: CompleteRequest) => call<CompleteResponse>('POST', '/api/workflows/complete', body),
    format: (definition: JsonValue) => call<FormatResponse>('POST', '/api/workflows/format', { definition }),
    save: (body: SaveRequest) => call<SaveResponse>('POST', '/api/workflows/save', body),
    saveTestCase: (runId: string, body: TestCaseRequest) => call<TestCaseSaved>('POST', `/api/runs/${enc(runId)}/test-case`, body),
    // The Chat panel's routes (docs/api.md, "Chat"); questions go over the socket.
    chatConfig: () => call<ChatConfig>('GET', '/api/chat/config'),
    chatSessions: () => call<ChatSessionList>('GET', '/api/chat/sessions'),
    chatSession: (id: string) => call<ChatSession>('GET', `/api/chat/sessions/${enc(id)}`),
    deleteChatSession: (id: string) => call<undefined>('DELETE', `/api/chat/sessions/${enc(id)}`),
    chatWorkflow: (sessionId: string, turnId: string) => call<JsonValue>('GET', `/api/chat/sessions/${enc(sessionId)}/turns/${enc(turnId)}/workflow`),
  }
}

export type Api = ReturnType<typeof createApi>

/** `{code, message}` for any thrown value. */
export function errorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message }
  if (error instanceof Error) return { code: 'ERROR', message: error.message }
  return { code: 'ERROR', message: String(error) }
}
