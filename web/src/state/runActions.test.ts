import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { RunSnapshot } from '../api/types'
import { createApp, type App } from '../app/createApp'
import { SILENCE_MS } from './runActions'

function snapshot(over: Partial<RunSnapshot>): RunSnapshot {
  return { runId: 'r1', workflow: 'w', status: 'running', seq: 0, startedAt: 0, layers: [], steps: {}, ...over }
}

describe('runs.pollIfSilent', () => {
  let served: RunSnapshot
  let app: App
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(served), { status: 200 }))

  beforeEach(() => {
    globalThis.fetch = fetchMock as unknown as typeof fetch
    fetchMock.mockClear()
    app = createApp()
    app.stores.run.getState().begin('r1')
    app.socket.lastHeardAt = 1000
  })

  it('does nothing while the socket is delivering', async () => {
    await app.runs.pollIfSilent(1000 + SILENCE_MS - 1)
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('folds a newer snapshot when the socket went quiet', async () => {
    served = snapshot({ status: 'failed', seq: 6, error: 'boom' })
    await app.runs.pollIfSilent(1000 + SILENCE_MS)
    expect(fetchMock).toHaveBeenCalledWith('/api/runs/r1', expect.anything())
    expect(app.stores.run.getState()).toMatchObject({ status: 'failed', seq: 6, error: 'boom' })
  })

  it('does not replace newer socket state with an older snapshot', async () => {
    app.stores.run.getState().apply({ type: 'event', runId: 'r1', seq: 3, event: { type: 'step_started', stepId: 'a', name: 'A', tool: 't' } })
    served = snapshot({ seq: 2 })
    await app.runs.pollIfSilent(1000 + SILENCE_MS)
    expect(app.stores.run.getState().steps.a?.status).toBe('running')
    expect(app.stores.run.getState().seq).toBe(3)
  })

  it('does not poll a finished run', async () => {
    app.stores.run.getState().apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'run_finished', status: 'completed', durationMs: 1 } })
    await app.runs.pollIfSilent(1_000_000)
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('runs.answer', () => {
  it('sends the answer, then subscribes to the run again for what comes next', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ runId: 'r1', status: 'running' }), { status: 202 }))
    globalThis.fetch = fetchMock as unknown as typeof fetch
    const app = createApp()
    app.stores.run.getState().begin('r1')
    const follow = vi.spyOn(app.socket, 'follow')
    await app.runs.answer('r1', { stepId: 'ask', input: { ok: true } })
    expect(fetchMock).toHaveBeenCalledWith('/api/runs/r1/input', expect.objectContaining({ method: 'POST' }))
    expect(follow).toHaveBeenCalledWith('r1')
  })

  it('does not follow a run it answered when another is shown, nor one that refused', async () => {
    const app = createApp()
    app.stores.run.getState().begin('r2')
    const follow = vi.spyOn(app.socket, 'follow')
    globalThis.fetch = vi.fn(async () => new Response(JSON.stringify({ runId: 'r1', status: 'running' }), { status: 202 })) as unknown as typeof fetch
    await app.runs.answer('r1', { input: {} })
    const refusal = { error: { code: 'NOT_WAITING', message: 'not waiting' } }
    globalThis.fetch = vi.fn(async () => new Response(JSON.stringify(refusal), { status: 409 })) as unknown as typeof fetch
    await expect(app.runs.answer('r2', { input: {} })).rejects.toMatchObject({ code: 'NOT_WAITING' })
    expect(follow).not.toHaveBeenCalled()
  })
})

describe('runs.continueRun', () => {
  it('asks the server to take the interrupted run up, then follows it', async () => {
    const app = createApp()
    app.stores.run.getState().begin('r1')
    const follow = vi.spyOn(app.socket, 'follow')
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ runId: 'r1', status: 'running' }), { status: 202 }))
    globalThis.fetch = fetchMock as unknown as typeof fetch
    await app.runs.continueRun('r1')
    expect(fetchMock).toHaveBeenCalledWith('/api/runs/r1/continue', expect.objectContaining({ method: 'POST' }))
    expect(follow).toHaveBeenCalledWith('r1')
  })

  it('says why when the run cannot be continued', async () => {
    const app = createApp()
    app.stores.run.getState().begin('r1')
    const refusal = { error: { code: 'CONFLICT', message: 'run "r1" cannot be resumed: it already ended (completed)' } }
    globalThis.fetch = vi.fn(async () => new Response(JSON.stringify(refusal), { status: 409 })) as unknown as typeof fetch
    await app.runs.continueRun('r1')
    expect(app.stores.run.getState().startError).toContain('it already ended')
  })
})

describe('runs.adopt', () => {
  it('follows a run of the open workflow that waits or was interrupted, not one that ended', () => {
    const app = createApp()
    app.stores.workflow.setState({ current: { id: 'file:a.vai-workflow.json' } } as never)
    const follow = vi.spyOn(app.socket, 'follow')
    const summary = { runId: 'r9', workflow: 'A', workflowId: 'file:a.vai-workflow.json', startedAt: 0 }
    app.runs.adopt({ ...summary, status: 'completed' })
    expect(follow).not.toHaveBeenCalled()
    app.runs.adopt({ ...summary, status: 'waiting' })
    expect(follow).toHaveBeenCalledWith('r9')
  })
})
