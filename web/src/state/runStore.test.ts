import { describe, expect, it } from 'vitest'
import { createRunStore } from './runStore'

describe('the run store', () => {
  it('begin clears the previous run entirely', () => {
    const runs = createRunStore()
    const store = runs.getState()
    store.begin('r1')
    store.apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'run_finished', status: 'failed', durationMs: 5, error: 'x' }, output: 1 })
    expect(runs.getState()).toMatchObject({ status: 'failed', error: 'x', output: 1 })
    runs.getState().begin('r2', 'builtin:w')
    const s = runs.getState()
    expect(s).toMatchObject({ runId: 'r2', workflowId: 'builtin:w', status: 'running', seq: 0, steps: {} })
    expect(s.error).toBeUndefined()
    expect(s.output).toBeUndefined()
    expect(s.durationMs).toBeUndefined()
  })

  it('keeps unchanged step objects, so per-node selectors do not re-render', () => {
    const runs = createRunStore()
    const store = runs.getState()
    store.begin('r1')
    store.apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'step_started', stepId: 'a', name: 'A', tool: 't' } })
    const a = runs.getState().steps.a
    store.apply({ type: 'event', runId: 'r1', seq: 2, event: { type: 'step_started', stepId: 'b', name: 'B', tool: 't' } })
    expect(runs.getState().steps.a).toBe(a)
  })

  it('lose marks only a running run failed', () => {
    const runs = createRunStore()
    runs.getState().begin('r1')
    runs.getState().lose('gone')
    expect(runs.getState()).toMatchObject({ status: 'failed', error: 'gone' })
    runs.getState().reset()
    runs.getState().lose('gone')
    expect(runs.getState().status).toBeUndefined()
  })

  it('reset forgets the run and the start error', () => {
    const runs = createRunStore()
    runs.getState().begin('r1')
    runs.getState().setStart({ startError: 'nope' })
    runs.getState().reset()
    expect(runs.getState()).toMatchObject({ seq: 0, steps: {}, starting: false })
    expect(runs.getState().runId).toBeUndefined()
    expect(runs.getState().startError).toBeUndefined()
  })
})
