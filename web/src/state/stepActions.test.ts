import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { writeStored } from '../hooks/useStoredState'
import { PACE_KEY, storedPace } from './stepActions'

type Reply = { status: number; body: unknown }

describe('step-through actions', () => {
  let replies: Reply[]
  let app: App
  const fetchMock = vi.fn(async (_path: string, _init?: RequestInit) => {
    const reply = replies.shift() ?? { status: 500, body: { error: { code: 'INTERNAL', message: 'no reply scripted' } } }
    return new Response(JSON.stringify(reply.body), { status: reply.status })
  })
  const bodyOf = (call: number) => JSON.parse(String(fetchMock.mock.calls[call][1]?.body)) as unknown

  beforeEach(() => {
    localStorage.clear()
    window.history.replaceState(null, '', '/')
    replies = []
    app = createApp()
    fetchMock.mockClear()
    globalThis.fetch = fetchMock as unknown as typeof fetch
  })

  function pausedRun() {
    app.stores.run.getState().begin('r1', 'w')
    app.stores.run
      .getState()
      .apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'paused', stepId: 'search', name: 'Search it', tool: 'search', breakpoint: true } })
  }

  describe('stepThroughFor', () => {
    it('sends nothing for a plain run without breakpoints or pace', () => {
      expect(app.stepping.stepThroughFor(false)).toBeUndefined()
    })

    it('pauses before each step for Step', () => {
      expect(app.stepping.stepThroughFor(true)).toEqual({ pauseEach: true, breakpoints: [], paceMs: 0 })
    })

    it('sends the breakpoints and the stored pace with a plain run', () => {
      app.stores.breakpoints.getState().toggle('merge')
      expect(app.stepping.stepThroughFor(false)).toEqual({ pauseEach: false, breakpoints: ['merge'], paceMs: 0 })
      app.stores.breakpoints.getState().toggle('merge')
      writeStored(PACE_KEY, 1000)
      expect(app.stepping.stepThroughFor(false)).toEqual({ pauseEach: false, breakpoints: [], paceMs: 1000 })
    })

    it('ignores a stored pace that is not one offered', () => {
      writeStored(PACE_KEY, 123_456)
      expect(storedPace()).toBe(0)
    })
  })

  it('starts the run with stepThrough in the request', async () => {
    app.stores.workflow.getState().setOpened({ current: { id: 'builtin:w', key: 'builtin:w', label: 'W', text: '{}', definition: {} }, diagnostics: [] })
    app.stores.breakpoints.getState().toggle('merge')
    replies.push({ status: 201, body: { runId: 'r9' } })
    await app.stepping.start({ query: 'q' }, true)
    expect(fetchMock.mock.calls[0][0]).toBe('/api/runs')
    expect(bodyOf(0)).toMatchObject({ inputs: { query: 'q' }, stepThrough: { pauseEach: true, breakpoints: ['merge'], paceMs: 0 } })
    expect(app.stores.run.getState().runId).toBe('r9')
  })

  it('Next and Continue post the action with the current breakpoints', async () => {
    pausedRun()
    replies.push({ status: 202, body: { runId: 'r1', status: 'running', stepId: 'search', action: 'next' } })
    await app.stepping.resume('next')
    expect(fetchMock.mock.calls[0][0]).toBe('/api/runs/r1/resume')
    expect(fetchMock.mock.calls[0][1]?.method).toBe('POST')
    expect(bodyOf(0)).toEqual({ action: 'next', breakpoints: [] })

    app.stores.breakpoints.getState().toggle('merge')
    replies.push({ status: 202, body: { runId: 'r1', status: 'running', stepId: 'search', action: 'continue' } })
    await app.stepping.resume('continue')
    expect(bodyOf(1)).toEqual({ action: 'continue', breakpoints: ['merge'] })
    expect(app.stores.run.getState().startError).toBeUndefined()
  })

  it('does nothing while the run is not paused', async () => {
    app.stores.run.getState().begin('r1', 'w')
    await app.stepping.resume('next')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('sends one resume for a double press', async () => {
    pausedRun()
    replies.push({ status: 202, body: { runId: 'r1', status: 'running', stepId: 'search', action: 'next' } })
    await Promise.all([app.stepping.resume('next'), app.stepping.resume('next')])
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('says nothing when another tab resumed first (409 NOT_PAUSED)', async () => {
    pausedRun()
    replies.push({ status: 409, body: { error: { code: 'NOT_PAUSED', message: 'run "r1" is not paused: it is running' } } })
    await app.stepping.resume('next')
    expect(app.stores.run.getState().startError).toBeUndefined()
  })

  it('shows other failures in the run bar', async () => {
    pausedRun()
    replies.push({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'no run "r1"' } } })
    await app.stepping.resume('continue')
    expect(app.stores.run.getState().startError).toBe('Could not continue: no run "r1"')
  })
})
