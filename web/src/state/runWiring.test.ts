import { describe, expect, it } from 'vitest'
import { createApp } from '../app/createApp'
import { socketSinks } from './runWiring'

function wired() {
  const app = createApp()
  return { stores: app.stores, sinks: socketSinks(app) }
}

describe('the run socket wired to the stores', () => {
  it('shows the connection state', () => {
    const { stores, sinks } = wired()
    sinks.onConnection('open')
    sinks.onConnection('closed')
    expect(stores.connection.getState()).toMatchObject({ state: 'closed', everOpened: true })
  })

  it('folds messages into the run and marks a lost run failed', () => {
    const { stores, sinks } = wired()
    stores.run.getState().begin('r1')
    sinks.onMessage({ type: 'event', runId: 'r1', seq: 1, event: { type: 'step_started', stepId: 'a', name: 'A', tool: 't' } })
    expect(stores.run.getState().steps.a?.status).toBe('running')
    sinks.onLost('r1')
    expect(stores.run.getState()).toMatchObject({ status: 'failed', error: 'The server no longer has this run (was it restarted?).' })
  })

  it("shows the followed run's breakpoints, as another tab started or resumed it", () => {
    const { stores, sinks } = wired()
    stores.breakpoints.setState({ key: 'builtin:wf', ids: [] })
    stores.run.getState().begin('r2')
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
    sinks.onMessage({ type: 'snapshot', run })
    expect(stores.breakpoints.getState().ids).toEqual(['b'])

    // A toggle here stays while the run's breakpoints do not change…
    stores.breakpoints.getState().toggle('c')
    sinks.onMessage({ type: 'event', runId: 'r2', seq: 2, event: { type: 'paused', stepId: 'b', name: 'B', tool: 't', breakpoint: true } })
    expect(stores.breakpoints.getState().ids).toEqual(['b', 'c'])
    // …until a resume elsewhere replaces them.
    sinks.onMessage({ type: 'event', runId: 'r2', seq: 3, event: { type: 'resumed', stepId: 'b', action: 'continue', breakpoints: ['a'] } })
    expect(stores.breakpoints.getState().ids).toEqual(['a'])
  })
})
