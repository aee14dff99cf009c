import { describe, expect, it } from 'vitest'
import { useBreakpointStore } from './breakpointStore'
import { useConnectionStore } from './connectionStore'
import { useRunStore } from './runStore'
import { storeSinks } from './runWiring'

describe('the run socket wired to the stores', () => {
  it('shows the connection state', () => {
    storeSinks.onConnection('open')
    storeSinks.onConnection('closed')
    expect(useConnectionStore.getState()).toMatchObject({ state: 'closed', everOpened: true })
  })

  it('folds messages into the run and marks a lost run failed', () => {
    useRunStore.getState().begin('r1')
    storeSinks.onMessage({ type: 'event', runId: 'r1', seq: 1, event: { type: 'step_started', stepId: 'a', name: 'A', tool: 't' } })
    expect(useRunStore.getState().steps.a?.status).toBe('running')
    storeSinks.onLost('r1')
    expect(useRunStore.getState()).toMatchObject({ status: 'failed', error: 'The server no longer has this run (was it restarted?).' })
  })

  it("shows the followed run's breakpoints, as another tab started or resumed it", () => {
    useBreakpointStore.setState({ key: 'builtin:wf', ids: [] })
    useRunStore.getState().begin('r2')
    const run = {
      runId: 'r2',
      workflow: 'wf',
      status: 'running' as const,
      seq: 1,
      startedAt: 1,
      layers: [['a', 'b', 'c']],
      steps: {},
      stepThrough: { pauseEach: false, breakpoints: ['b'], paceMs: 0 },
    }
    storeSinks.onMessage({ type: 'snapshot', run })
    expect(useBreakpointStore.getState().ids).toEqual(['b'])

    // A toggle here stays while the run's breakpoints do not change…
    useBreakpointStore.getState().toggle('c')
    storeSinks.onMessage({ type: 'event', runId: 'r2', seq: 2, event: { type: 'paused', stepId: 'b', name: 'B', tool: 't', breakpoint: true } })
    expect(useBreakpointStore.getState().ids).toEqual(['b', 'c'])
    // …until a resume elsewhere replaces them.
    storeSinks.onMessage({ type: 'event', runId: 'r2', seq: 3, event: { type: 'resumed', stepId: 'b', action: 'continue', breakpoints: ['a'] } })
    expect(useBreakpointStore.getState().ids).toEqual(['a'])
  })
})
