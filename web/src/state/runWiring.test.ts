import { describe, expect, it } from 'vitest'
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
})
