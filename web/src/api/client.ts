//! Typed fetch wrappers for every route in docs/api.md. Failures reject with an `ApiError`
//! carrying the server's `{code, message}` (and diagnostics for workflow errors). A 401 (the
//! page was opened without the access token `vai playground` printed) is also announced to
//! `onAccessDenied` listeners, so the shell can say what to do instead of showing broken panels.
import type {
  ChatConfig,
  ChatSession,
  ChatSessionList,
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
  PlanResponse,
  RunOutput,
  RunSnapshot,
  CancelAccepted,
  Resume,
  ResumeAccepted,
  RunCreated,
  StartRun,
  StepDetail,
  ToolCatalog,
  ValidateResponse,
  WorkflowBody,
  WorkflowDocument,
  WorkflowList,
  RunList,
} from './types'

export class ApiError extends Error {
  readonly code: string
  readonly status: number
  readonly diagnostics: Diagnostic[]
  constructor(code: string, message: string, status = 0, diagnostics: Diagnostic[] = []) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.diagnostics = diagnostics
  }
}

let denied = false
const deniedListeners = new Set<() => void>()

/** Calls `listener` on every 401 from the API; returns the unsubscribe. */
export function onAccessDenied(listener: () => void): () => void {
  deniedListeners.add(listener)
  return () => deniedListeners.delete(listener)
}

/** True once the API has refused this page for want of the access token. */
export function isAccessDenied(): boolean {
  return denied
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
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
  if (response.status === 401) {
    denied = true
    deniedListeners.forEach((listener) => listener())
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string; diagnostics?: Diagnostic[] } } | undefined)?.error
    throw new ApiError(
      error?.code ?? `HTTP_${response.status}`,
      error?.message ?? `The server answered ${response.status} ${response.statusText}`.trim(),
      response.status,
      error?.diagnostics ?? (json as { diagnostics?: Diagnostic[] } | undefined)?.diagnostics ?? [],
    )
  }
  return json as T
}

const enc = encodeURIComponent

/**
 * A plan refused with diagnostics (an invalid document; text that is not JSON, with the line
 * and column) is still the plan's answer: the caller shows the diagnostics, not a failure.
 */
async function planned(call: Promise<PlanResponse>): Promise<PlanResponse> {
  try {
    return await call
  } catch (e) {
    if (e instanceof ApiError && e.diagnostics.length > 0) return { valid: false, diagnostics: e.diagnostics }
    throw e
  }
}

export const api = {
  listWorkflows: () => request<WorkflowList>('GET', '/api/workflows'),
  starters: () => request<StarterList>('GET', '/api/workflows/starters'),
  getWorkflow: (id: string) => request<WorkflowDocument>('GET', `/api/workflows/${enc(id)}`),
  validate: (body: WorkflowBody) => request<ValidateResponse>('POST', '/api/workflows/validate', body),
  plan: (body: WorkflowBody) => planned(request<PlanResponse>('POST', '/api/workflows/plan', body)),
  tools: () => request<ToolCatalog>('GET', '/api/tools'),
  configStatus: () => request<ConfigStatus>('GET', '/api/config/status'),
  startRun: (body: StartRun) => request<RunCreated>('POST', '/api/runs', body),
  listRuns: () => request<RunList>('GET', '/api/runs'),
  getRun: (runId: string) => request<RunSnapshot>('GET', `/api/runs/${enc(runId)}`),
  cancelRun: (runId: string) => request<CancelAccepted>('POST', `/api/runs/${enc(runId)}/cancel`),
  resumeRun: (runId: string, body: Resume) => request<ResumeAccepted>('POST', `/api/runs/${enc(runId)}/resume`, body),
  runOutput: (runId: string) => request<RunOutput>('GET', `/api/runs/${enc(runId)}/output`),
  stepOutput: (runId: string, stepId: string) => request<StepDetail>('GET', `/api/runs/${enc(runId)}/steps/${enc(stepId)}/output`),
  // The builder's routes (builder-api.md §3).
  references: (definition: JsonValue) => request<ReferencesResponse>('POST', '/api/workflows/references', { definition }),
  rewrite: (body: RewriteRequest) => request<RewriteResponse>('POST', '/api/workflows/rewrite', body),
  complete: (body: CompleteRequest) => request<CompleteResponse>('POST', '/api/workflows/complete', body),
  format: (definition: JsonValue) => request<FormatResponse>('POST', '/api/workflows/format', { definition }),
  save: (body: SaveRequest) => request<SaveResponse>('POST', '/api/workflows/save', body),
  saveTestCase: (runId: string, body: TestCaseRequest) => request<TestCaseSaved>('POST', `/api/runs/${enc(runId)}/test-case`, body),
  // The Chat panel's routes (docs/api.md, "Chat"); questions go over the socket.
  chatConfig: () => request<ChatConfig>('GET', '/api/chat/config'),
  chatSessions: () => request<ChatSessionList>('GET', '/api/chat/sessions'),
  chatSession: (id: string) => request<ChatSession>('GET', `/api/chat/sessions/${enc(id)}`),
  deleteChatSession: (id: string) => request<undefined>('DELETE', `/api/chat/sessions/${enc(id)}`),
  chatWorkflow: (sessionId: string, turnId: string) => request<JsonValue>('GET', `/api/chat/sessions/${enc(sessionId)}/turns/${enc(turnId)}/workflow`),
}

/** `{code, message}` for any thrown value. */
export function errorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message }
  if (error instanceof Error) return { code: 'ERROR', message: error.message }
  return { code: 'ERROR', message: String(error) }
}
