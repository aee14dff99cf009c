//! A scripted stand-in for `vai playground` in jsdom tests: fetch routes and a WebSocket class
//! whose server side the test drives.
import type { GraphView, PlanResponse, ReferenceSite, ReferencesResponse, RunSummary, ServerMessage, Workflow, WorkflowSummary } from '../api/types'

export const definition: Workflow = {
  name: 'Two Steps',
  description: 'Search, then merge',
  inputs: { query: { type: 'string', required: true }, limit: { type: 'number', default: 5 } },
  steps: [
    { id: 'search', name: 'Search it', tool: 'search', inputs: { query: '{{ inputs.query }}', limit: '{{ inputs.limit }}' } },
    { id: 'merge', name: 'Merge it', tool: 'merge', inputs: { arrays: ['{{ search.output.results }}'] } },
  ],
  output: { results: '{{ merge.output.results }}' },
}

export const graph: GraphView = {
  name: 'Two Steps',
  description: 'Search, then merge',
  nodes: [
    {
      kind: 'inputs',
      id: '__inputs',
      inputs: [
        { name: 'query', type: 'string', required: true },
        { name: 'limit', type: 'number', required: false, default: 5 },
      ],
    },
    {
      kind: 'step',
      id: 'search',
      name: 'Search it',
      tool: 'search',
      category: 'retrieval',
      color: '#40E0FF',
      icon: 'Search',
      continueOnError: false,
    },
    {
      kind: 'step',
      id: 'merge',
      name: 'Merge it',
      tool: 'merge',
      category: 'control_flow',
      color: '#90A4AE',
      icon: 'MergeType',
      continueOnError: false,
    },
    { kind: 'output', id: '__output', fields: ['results'] },
  ],
  edges: [],
  layers: [['search'], ['merge']],
  estimate: { fixed: { embed: 1, rerank: 0, vectorSearch: 1, llm: 0, http: 0 }, perItem: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 } },
  runnable: true,
}

/** A whole-value template reference, as `POST /api/workflows/references` reports it. */
function wholeTemplate(pointer: string, field: string, path: string, target: string, stepId?: string): ReferenceSite {
  const root = path.split('.')[0]
  const end = 3 + path.length
  return {
    pointer,
    field,
    kind: 'template',
    path,
    root,
    target,
    start: 3,
    end,
    rootStart: 3,
    rootEnd: 3 + root.length,
    templateStart: 0,
    templateEnd: end + 3,
    whole: true,
    ...(stepId ? { stepId } : {}),
  }
}

/** The reference index of `definition`. */
export const references: ReferencesResponse = {
  references: [
    wholeTemplate('/steps/0/inputs/query', 'inputs.query', 'inputs.query', '__inputs', 'search'),
    wholeTemplate('/steps/0/inputs/limit', 'inputs.limit', 'inputs.limit', '__inputs', 'search'),
    wholeTemplate('/steps/1/inputs/arrays/0', 'inputs.arrays[0]', 'search.output.results', 'search', 'merge'),
    wholeTemplate('/output/results', 'output.results', 'merge.output.results', 'merge'),
  ],
}

export const summaries: WorkflowSummary[] = [
  {
    id: 'builtin:two-steps',
    name: 'Two Steps',
    description: 'Search, then merge',
    source: 'builtin',
    readOnly: true,
    stepCount: 2,
    inputs: ['query', 'limit'],
  },
  { id: 'example:other', name: 'Other Example', source: 'example', readOnly: true, stepCount: 1, inputs: [] },
]

export interface Call {
  method: string
  path: string
  body?: unknown
}

/** A socket the app opened, as the fake server sees it. */
export interface FakeSocketView {
  readyState: number
  sent: unknown[]
  /** Server → client. */
  push(message: ServerMessage): void
  onclose?: () => void
}

/** A test's own answer to a call, or `undefined` to let the fake server answer. */
export type Respond = (call: Call) => Response | undefined

export function installFakeServer({ runs = [] as RunSummary[], respond = (() => undefined) as Respond } = {}) {
  const calls: Call[] = []
  /** Every socket opened since this server was installed, oldest first. */
  const sockets: FakeSocketView[] = []
  const text = JSON.stringify(definition, null, 2)
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input)
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, path, body })
    const own = respond({ method, path, body })
    if (own) return own
    if (path === '/api/workflows') return json({ workflows: summaries })
    if (path.startsWith('/api/workflows/builtin')) return json({ summary: summaries[0], text, definition, version: '0123456789abcdef' })
    if (path === '/api/workflows/plan') {
      const source = (body as { text?: string }).text ?? ''
      try {
        JSON.parse(source)
      } catch {
        const plan: PlanResponse = {
          valid: false,
          diagnostics: [{ severity: 'error', code: 'INVALID_JSON', message: 'invalid JSON: trailing comma', line: 4, column: 18 }],
        }
        return json(plan)
      }
      return json({ valid: true, diagnostics: [], graph } satisfies PlanResponse)
    }
    if (path === '/api/workflows/references') return json(references)
    if (path === '/api/tools') return json({ tools: [], categories: [] })
    if (path === '/api/config/status') return json({ offline: true, providers: [{ id: 'llm', label: 'LLM', backend: 'none', configured: false, detail: '' }] })
    if (path === '/api/runs' && method === 'POST') return json({ runId: 'run-1' }, 201)
    if (path === '/api/runs') return json({ runs })
    if (path.startsWith('/api/runs/run-1/steps/'))
      return json({ stepId: 'search', status: 'completed', inputs: { query: 'hello there' }, output: { results: [{ text: 'a' }], resultCount: 1 } })
    return json({ error: { code: 'NOT_FOUND', message: `no route ${path}` } }, 404)
  }
  globalThis.fetch = fetchMock as typeof fetch

  class FakeSocket {
    static OPEN = 1
    readyState = 0
    sent: unknown[] = []
    onopen?: () => void
    onmessage?: (e: { data: string }) => void
    onclose?: () => void
    constructor(public url: string) {
      sockets.push(this)
      setTimeout(() => {
        this.readyState = 1
        this.onopen?.()
      }, 0)
    }
    send(data: string) {
      this.sent.push(JSON.parse(data))
    }
    close() {
      this.readyState = 3
    }
    /** Server → client. */
    push(message: ServerMessage) {
      this.onmessage?.({ data: JSON.stringify(message) })
    }
  }
  ;(globalThis as Record<string, unknown>).WebSocket = FakeSocket
  return { calls, sockets }
}
