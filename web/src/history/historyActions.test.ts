import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { definition, installFakeServer } from '../test/fakeServer'
import { first, historyRoutes, listed, record, restartedRun, second, WORKFLOW_ID } from './fixtures'
import { pastKey, pastOnCanvas } from './historyStore'

let server: ReturnType<typeof installFakeServer>
let app: App

beforeEach(() => {
  window.history.replaceState(null, '', '/')
  server = installFakeServer({ respond: historyRoutes({ 'r-gone': record({ ...first, runId: 'r-gone' }, { changedSince: undefined }) }) })
  app = createApp()
})

const posts = () => server.calls.filter((c) => c.method === 'POST' && c.path.includes('/restart'))

describe('history.list', () => {
  it('asks for the runs of one workflow with a status, and keeps what it was asked', async () => {
    await app.history.list(WORKFLOW_ID, 'completed')
    expect(server.calls.at(-1)?.path).toBe('/api/history?workflowId=builtin%3Atwo-steps&status=completed')
    expect(app.stores.history.getState()).toMatchObject({ runs: listed, listing: false, listed: { workflowId: WORKFLOW_ID, status: 'completed' } })
    await app.history.refresh()
    expect(server.calls.at(-1)?.path).toBe('/api/history?workflowId=builtin%3Atwo-steps&status=completed')
  })
})

describe('the address', () => {
  it('opens the past run `?run=` names, and a workflow opened after it drops `run`', async () => {
    window.history.replaceState(null, '', '/?run=r-second')
    app.open.fromLocation()
    await vi.waitFor(() => expect(app.stores.run.getState().runId).toBe('r-second'))
    expect(app.stores.workflow.getState().current?.key).toBe(pastKey('r-second'))
    await app.open.byId(WORKFLOW_ID)
    expect(window.location.search).toBe('?workflow=builtin%3Atwo-steps')
    expect(pastOnCanvas(app.stores.history.getState(), app.stores.workflow.getState())).toBeUndefined()
    expect(app.stores.run.getState().runId).toBeUndefined()
  })
})

describe('history.list and picks', () => {
  it('lets go of a ticked run the new list does not hold', async () => {
    app.history.pick('r-first', true)
    app.history.pick('r-elsewhere', true)
    await app.history.list(WORKFLOW_ID)
    expect(app.stores.history.getState().picked).toEqual(['r-first'])
  })
})

describe('history.open', () => {
  it('draws the run from the definition it ran, its steps as they ended, and its inputs in the run form', async () => {
    await app.history.open('r-first')
    const { workflow, run, inputs, history } = app.stores
    expect(workflow.getState().current).toMatchObject({ key: pastKey('r-first'), id: WORKFLOW_ID, readOnly: true, definition, label: 'Two Steps' })
    expect(workflow.getState().graph?.nodes.some((n) => n.id === 'search')).toBe(true)
    expect(run.getState()).toMatchObject({ runId: 'r-first', status: 'completed', durationMs: 1200 })
    expect(run.getState().steps.search).toMatchObject({ status: 'completed', durationMs: 800 })
    expect(inputs.getState().seeds[pastKey('r-first')]).toEqual({ query: 'auth', limit: '3' })
    expect(pastOnCanvas(history.getState(), workflow.getState())?.run.runId).toBe('r-first')
    expect(window.location.search).toBe('?run=r-first')
  })

  it('says which run a restarted one reused its steps from', async () => {
    await app.history.open('r-third')
    expect(app.stores.run.getState().fromRun).toBe('r-first')
  })

  it('opens a run whose workflow left the library without a library id', async () => {
    await app.history.open('r-gone')
    expect(app.stores.workflow.getState().current).toMatchObject({ key: pastKey('r-gone'), id: undefined })
  })

  it('keeps the workflow shown and says why when the run cannot be read', async () => {
    await app.open.byId(WORKFLOW_ID)
    await app.history.open('r-nope')
    expect(app.stores.workflow.getState()).toMatchObject({ loading: false, loadError: 'past run r-nope: no run' })
    expect(app.stores.workflow.getState().current?.key).toBe(WORKFLOW_ID)
  })

  it('goes back to the workflow as it is in the library', async () => {
    await app.history.open('r-first')
    await app.history.leave()
    await vi.waitFor(() => expect(app.stores.workflow.getState().current?.key).toBe(WORKFLOW_ID))
    expect(app.stores.history.getState().past).toBeUndefined()
    expect(window.location.search).toBe('?workflow=builtin%3Atwo-steps')
  })
})

describe('history.compare', () => {
  it('takes the run that started first as A and draws B', async () => {
    await app.history.list(WORKFLOW_ID)
    app.history.pick(second.runId, true)
    app.history.pick(first.runId, true)
    app.history.pick(restartedRun.runId, true)
    // A third pick replaces the earliest.
    expect(app.stores.history.getState().picked).toEqual([first.runId, restartedRun.runId])
    await app.history.compare(second.runId, first.runId)
    expect(server.calls.some((c) => c.path === '/api/history/diff?a=r-first&b=r-second')).toBe(true)
    expect(app.stores.history.getState().comparison).toMatchObject({ a: 'r-first', b: 'r-second', loading: false })
    expect(app.stores.run.getState().runId).toBe('r-second')
  })
})

describe('history.compare refused', () => {
  it('says why two runs cannot be compared, and still draws B', async () => {
    const unrelated = 'runs r-first ("Two Steps") and r-second ("Other") are of unrelated workflows: they share neither a name nor a step'
    installFakeServer({
      respond: (call) =>
        call.path.startsWith('/api/history/diff')
          ? new Response(JSON.stringify({ error: { code: 'BAD_REQUEST', message: unrelated } }), { status: 400 })
          : historyRoutes()(call),
    })
    await app.history.compare('r-first', 'r-second')
    expect(app.stores.history.getState().comparison).toEqual({ a: 'r-first', b: 'r-second', loading: false, error: unrelated })
    expect(app.stores.run.getState().runId).toBe('r-second')
  })
})

describe('history.restart', () => {
  it('sends only the step when nothing changed, and follows the new run', async () => {
    await app.history.open('r-first')
    const follow = vi.spyOn(app.socket, 'follow')
    await app.history.restart('merge')
    expect(posts()).toEqual([{ method: 'POST', path: '/api/history/r-first/restart', body: { from: 'merge' } }])
    expect(follow).toHaveBeenCalledWith('r-new')
    expect(app.stores.run.getState()).toMatchObject({ runId: 'r-new', status: 'running', fromRun: 'r-first' })
    expect(app.stores.history.getState().restarted).toMatchObject({ runId: 'r-new', from: { runId: 'r-first', step: 'merge' } })
  })

  it('sends the edited definition and the inputs changed in the run form', async () => {
    await app.history.open('r-first')
    app.stores.inputs.getState().setValue('limit', '6')
    const edited = { ...definition, name: 'Two Steps, edited' }
    app.stores.workflow.setState({ current: { ...app.stores.workflow.getState().current!, definition: edited } })
    await app.history.restart('merge')
    expect(posts()[0]?.body).toEqual({ from: 'merge', definition: edited, inputs: { limit: 6 } })
    // The seeded form keeps the edit for this page, not in this browser's storage.
    expect(localStorage.length).toBe(0)
  })

  it('says why the server refused', async () => {
    installFakeServer({
      respond: (call) =>
        call.path.endsWith('/restart')
          ? new Response(JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'the workflow has no step "nope"' } }), { status: 400 })
          : historyRoutes()(call),
    })
    await app.history.open('r-first')
    await app.history.restart('nope')
    expect(app.stores.history.getState()).toMatchObject({ restarting: false, restartError: 'the workflow has no step "nope"' })
    expect(app.stores.run.getState().runId).toBe('r-first')
  })
})
