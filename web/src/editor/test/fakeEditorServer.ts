//! The fake playground of src/test/fakeServer.ts plus the builder's routes, for tests that drive
//! the whole app in edit mode.
import type { GraphEdge, PlanResponse, SaveResponse, StarterList, Workflow, WorkflowSummary } from '../../api/types'
import { installFakeServer, summaries } from '../../test/fakeServer'
import { NO_ESTIMATE } from '../../plan/estimate'
import { renameIn } from './fakeEditorApi'
import { tools } from './fixtures'

export const categories = [
  { id: 'retrieval', label: 'Retrieval', color: '#40E0FF' },
  { id: 'control_flow', label: 'Control flow', color: '#90A4AE' },
  { id: 'utility', label: 'Utility', color: '#90A4AE' },
]

/** Two of the starters `GET /api/workflows/starters` lists. */
export const starters: StarterList['starters'] = [
  {
    id: 'search',
    label: 'Search',
    description: 'Search a collection',
    definition: { name: 'Search', steps: [{ id: 'search', tool: 'query', inputs: { query: '{{ inputs.query }}' } }] },
  },
  {
    id: 'rag',
    label: 'Search and answer (RAG)',
    description: 'Search, then answer',
    definition: {
      name: 'Search and answer (RAG)',
      inputs: { query: { type: 'string', required: true } },
      steps: [
        { id: 'search', tool: 'query', inputs: { query: '{{ inputs.query }}' } },
        { id: 'answer', tool: 'generate', inputs: { prompt: '{{ inputs.query }}', context: '{{ search.output.results }}' } },
      ],
    },
  },
]

/** Step-to-step edges of `doc`, read off `{{ <id>.output… }}` in step inputs (enough for a fake plan). */
function edgesOf(doc: Workflow): GraphEdge[] {
  const ids = new Set(doc.steps.map((s) => s.id))
  return doc.steps.flatMap((step) =>
    [...JSON.stringify(step.inputs).matchAll(/\{\{\s*(\w+)\.output/g)]
      .map((m) => m[1])
      .filter((source) => ids.has(source) && source !== step.id)
      .map((source) => ({ id: `${source}->${step.id}`, source, target: step.id, kind: 'reference' as const, label: `${source}.output`, field: 'inputs' })),
  )
}

export interface EditorServerCall {
  method: string
  path: string
  body?: unknown
}

export function installEditorServer() {
  const base = installFakeServer()
  const inner = globalThis.fetch
  const calls: EditorServerCall[] = []
  const files = new Map<string, WorkflowSummary>()
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input)
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, path, body })
    if (path === '/api/tools') return json({ tools: Object.values(tools), categories })
    if (path === '/api/workflows/references') return json({ references: [] })
    if (path === '/api/workflows/starters') return json({ starters } satisfies StarterList)
    if (path === '/api/workflows/plan' && body?.definition) {
      const doc = body.definition as Workflow
      return json({
        valid: true,
        diagnostics: [],
        graph: {
          name: doc.name,
          nodes: [],
          edges: edgesOf(doc),
          layers: [],
          estimate: NO_ESTIMATE,
          runnable: true,
        },
      } satisfies PlanResponse)
    }
    if (path === '/api/workflows/rewrite') {
      const doc = body.definition as Workflow
      const renames: Record<string, string> = body.steps ?? {}
      const steps = doc.steps.map((s) => ({ ...(renameIn(s, renames) as object), id: renames[s.id] ?? s.id }))
      return json({ definition: { ...doc, steps, output: renameIn(doc.output, renames) }, changed: [] })
    }
    if (path === '/api/workflows/format') return json({ text: `${JSON.stringify(body.definition, null, 2)}\n` })
    if (path === '/api/workflows/save') {
      const id = `file:${body.fileName}.vai-workflow.json`
      const summary: WorkflowSummary = { id, name: body.definition.name, source: 'file', stepCount: body.definition.steps.length, inputs: [], readOnly: false }
      files.set(id, summary)
      return json({ id, version: 'v2', summary } satisfies SaveResponse)
    }
    // Saved files are listed, as the directory's files are.
    if (path === '/api/workflows') return json({ workflows: [...summaries, ...files.values()] })
    if (path.startsWith('/api/workflows/builtin')) {
      const answer = await inner(input, init)
      return json({ ...(await answer.json()), version: 'v1' })
    }
    if (path.startsWith('/api/workflows/example')) {
      const doc = { name: 'Other Example', steps: [{ id: 'only', tool: 'template', inputs: { text: 'hi' } }] }
      return json({ summary: summaries[1], text: JSON.stringify(doc), definition: doc, version: 'v1' })
    }
    return inner(input, init)
  }) as typeof fetch
  return { calls, baseCalls: base.calls }
}
