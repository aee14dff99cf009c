//! A scripted server for the editor store's tests: every route answers from the document it is
//! given, and a test can hold answers back to deliver them out of order.
import { vi } from 'vitest'
import type { GraphEdge, JsonValue, PlanResponse, ReferenceSite, Step, Workflow } from '../../api/types'
import type { EditorApi } from '../store/editorApi'
import { NO_ESTIMATE } from '../../plan/estimate'

export interface Held<T> {
  resolve(value: T): void
  reject(error: unknown): void
}

/** Renames ids the way the rewrite route does, for the documents these tests use. */
export function renameIn(value: unknown, renames: Record<string, string>): unknown {
  if (typeof value === 'string') {
    let out = value
    for (const [from, to] of Object.entries(renames)) {
      out = out.replace(new RegExp(`\\b${from}\\.output`, 'g'), `${to}.output`)
      if (out === from) out = to
    }
    return out
  }
  if (Array.isArray(value)) return value.map((v) => renameIn(v, renames))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameIn(v, renames)]))
  return value
}

export function planOf(doc: Workflow, edges: GraphEdge[] = []): PlanResponse {
  return {
    valid: true,
    diagnostics: [],
    graph: {
      name: doc.name,
      nodes: [],
      edges,
      layers: [],
      estimate: NO_ESTIMATE,
      runnable: true,
    },
  }
}

export function fakeEditorApi() {
  const api = {
    plan: vi.fn(async (doc: Workflow) => planOf(doc)),
    planText: vi.fn(async (): Promise<PlanResponse> => ({
      valid: false,
      diagnostics: [{ severity: 'error', code: 'INVALID_JSON', message: 'invalid JSON: trailing comma', line: 4, column: 18 }],
    })),
    references: vi.fn(async (_doc: Workflow): Promise<ReferenceSite[]> => []),
    rewrite: vi.fn(async (body: { definition: JsonValue; steps?: Record<string, string>; inputs?: Record<string, string> }) => {
      const doc = structuredClone(body.definition) as unknown as Workflow
      const renames = body.steps ?? {}
      doc.steps = doc.steps.map((s: Step) => ({ ...(renameIn(s, renames) as Step), id: renames[s.id] ?? s.id }))
      if (body.inputs && doc.inputs) {
        doc.inputs = Object.fromEntries(Object.entries(doc.inputs).map(([k, v]) => [body.inputs![k] ?? k, v]))
      }
      return { definition: doc as unknown as JsonValue, changed: [] }
    }),
    complete: vi.fn(async () => ({ from: 0, to: 0, items: [] })),
    format: vi.fn(async (doc: Workflow) => `${JSON.stringify(doc, null, 2)}\n`),
    save: vi.fn(async (body: { fileName: string }) => ({
      id: `file:${body.fileName.endsWith('.vai-workflow.json') ? body.fileName : `${body.fileName}.vai-workflow.json`}`,
      version: 'v2',
      summary: { id: `file:${body.fileName}`, name: 'Saved', source: 'file' as const, stepCount: 1, inputs: [], readOnly: false },
    })),
    getWorkflow: vi.fn(),
  } satisfies EditorApi
  return api
}

/** A promise the test resolves when it chooses. */
export function held<T>(): Promise<T> & Held<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  }) as Promise<T> & Held<T>
  promise.resolve = resolve
  promise.reject = reject
  return promise
}

/** An in-memory Storage for draft tests. */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
}
