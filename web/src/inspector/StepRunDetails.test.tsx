import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../app/createApp'
import { installFakeServer } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import StepRunDetails from './StepRunDetails'

beforeEach(() => {
  installFakeServer()
})

describe('StepRunDetails', () => {
  it('says a step replayed for "Run this step" was reused from the earlier run, not how long it took', async () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      fromRun: 'run-0',
      status: 'completed',
      steps: { search: { status: 'completed', durationMs: 0, backend: 'replay' } },
    })
    renderWithApp(<StepRunDetails stepId="search" />, app)
    await screen.findByText('Resolved inputs')
    const facts = screen.getByTestId('step-run-facts').textContent
    expect(facts).toBe('Completed · reused from run run-0, not run again')
  })

  it('gives a step that ran its time and backend', async () => {
    const app = createApp()
    app.stores.run.setState({ runId: 'run-1', status: 'completed', steps: { search: { status: 'completed', durationMs: 12, backend: 'local' } } })
    renderWithApp(<StepRunDetails stepId="search" />, app)
    await screen.findByText('Resolved inputs')
    expect(screen.getByTestId('step-run-facts').textContent).toBe('Completed · 12 ms · via local')
  })
})
