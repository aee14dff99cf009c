import { describe, expect, it } from 'vitest'
import { definition, graph, summaries } from '../test/fakeServer'
import { createApp } from './createApp'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status })

/** Serves library workflows by id; `builtin:slow` answers only once `gate` opens. */
function serveWorkflows(gate: Promise<void>) {
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const path = decodeURIComponent(String(input))
    if (path === '/api/workflows/builtin:slow') await gate
    const id = path.match(/^\/api\/workflows\/(builtin:\w+)$/)?.[1]
    if (id) return json({ summary: { ...summaries[0], id, name: id }, text: JSON.stringify(definition), version: 'v1' })
    if (path === '/api/workflows/plan') return json({ valid: true, diagnostics: [], graph })
    if (path === '/api/runs') return json({ runs: [] })
    return json({ error: { code: 'UNAUTHORIZED', message: 'no token' } }, 401)
  }) as typeof fetch
}

describe('createApp', () => {
  it('gives each app stores of its own', () => {
    const one = createApp()
    const other = createApp()
    one.stores.run.getState().begin('r1')
    one.stores.workflow.getState().select('search')
    one.stores.breakpoints.getState().toggle('merge')
    expect(other.stores.run.getState().runId).toBeUndefined()
    expect(other.stores.workflow.getState().selected).toBeUndefined()
    expect(other.stores.breakpoints.getState().ids).toEqual([])
  })

  it('denies only the app whose request met a 401', async () => {
    serveWorkflows(Promise.resolve())
    const refused = createApp()
    const other = createApp()
    await refused.stores.catalog.getState().load()
    expect(refused.stores.access.getState().denied).toBe(true)
    expect(other.stores.access.getState().denied).toBe(false)
  })

  it('keeps a slow open of one app when another app opens a workflow meanwhile', async () => {
    let open = () => {}
    serveWorkflows(new Promise((resolve) => (open = resolve)))
    const slow = createApp()
    const fast = createApp()
    const opening = slow.open.byId('builtin:slow', 'none')
    await fast.open.byId('builtin:fast', 'none')
    open()
    await opening
    expect(fast.stores.workflow.getState().current?.key).toBe('builtin:fast')
    expect(slow.stores.workflow.getState().current?.key).toBe('builtin:slow')
  })
})
