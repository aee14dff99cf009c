import { render, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { useRunStore } from '../state/runStore'
import { installFakeServer } from '../test/fakeServer'
import StepRunDetails from './StepRunDetails'

beforeEach(() => {
  installFakeServer()
})

describe('StepRunDetails', () => {
  it('says a step replayed for "Run this step" was reused from the earlier run, not how long it took', async () => {
    useRunStore.setState({
      runId: 'run-1',
      fromRun: 'run-0',
      status: 'completed',
      steps: { search: { status: 'completed', durationMs: 0, backend: 'replay' } },
    })
    render(<StepRunDetails stepId="search" />)
    await screen.findByText('Resolved inputs')
    const facts = screen.getByTestId('step-run-facts').textContent
    expect(facts).toBe('Completed · reused from run run-0, not run again')
  })

  it('gives a step that ran its time and backend', async () => {
    useRunStore.setState({ runId: 'run-1', status: 'completed', steps: { search: { status: 'completed', durationMs: 12, backend: 'local' } } })
    render(<StepRunDetails stepId="search" />)
    await screen.findByText('Resolved inputs')
    expect(screen.getByTestId('step-run-facts').textContent).toBe('Completed · 12 ms · via local')
  })
})
