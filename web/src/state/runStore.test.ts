import { beforeEach, describe, expect, it } from 'vitest'
import { useRunStore } from './runStore'

describe('useRunStore', () => {
  beforeEach(() => useRunStore.getState().reset())

  it('begin clears the previous run entirely', () => {
    const store = useRunStore.getState()
    store.begin('r1')
    store.apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'run_finished', status: 'failed', durationMs: 5, error: 'x' }, output: 1 })
    expect(useRunStore.getState()).toMatchObject({ status: 'failed', error: 'x', output: 1 })
    useRunStore.getState().begin('r2', 'builtin:w')
    const s = useRunStore.getState()
    expect(s).toMatchObject({ runId: 'r2', workflowId: 'builtin:w', status: 'running', seq: 0, steps: {} })
    expect(s.error).toBeUndefined()
    expect(s.output).toBeUndefined()
    expect(s.durationMs).toBeUndefined()
  })

  it('keeps unchanged step objects, so per-node selectors do not re-render', () => {
    const store = useRunStore.getState()
    store.begin('r1')
    store.apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'step_started', stepId: 'a', name: 'A', tool: 't' } })
    const a = useRunStore.getState().steps.a
    store.apply({ type: 'event', runId: 'r1', seq: 2, event: { type: 'step_started', stepId: 'b', name: 'B', tool: 't' } })
    expect(useRunStore.getState().steps.a).toBe(a)
  })

  it('lose marks only a running run failed', () => {
    useRunStore.getState().begin('r1')
    useRunStore.getState().lose('gone')
    expect(useRunStore.getState()).toMatchObject({ status: 'failed', error: 'gone' })
    useRunStore.getState().reset()
    useRunStore.getState().lose('gone')
    expect(useRunStore.getState().status).toBeUndefined()
  })

  it('reset forgets the run and the start error', () => {
    useRunStore.getState().begin('r1')
    useRunStore.getState().setStart({ startError: 'nope' })
    useRunStore.getState().reset()
    expect(useRunStore.getState()).toMatchObject({ seq: 0, steps: {}, starting: false })
    expect(useRunStore.getState().runId).toBeUndefined()
    expect(useRunStore.getState().startError).toBeUndefined()
  })
})
