import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import StepTiming from './StepTiming'

describe('StepTiming', () => {
  it('shows a step that ran with its time', () => {
    renderWithApp(<StepTiming run={{ status: 'completed', state: { status: 'completed', durationMs: 0 }, glowing: false }} />)
    expect(screen.getByTestId('step-time').textContent).toBe('0 ms')
  })

  it('shows a step replayed for "Run this step" as reused, not with a time', () => {
    const app = createApp()
    app.stores.run.setState({ runId: 'run-2', fromRun: 'run-1' })
    renderWithApp(<StepTiming run={{ status: 'completed', state: { status: 'completed', durationMs: 0, backend: 'replay' }, glowing: false }} />, app)
    expect(screen.queryByTestId('step-time')).toBeNull()
    const reused = screen.getByTestId('step-reused')
    expect(reused.textContent).toBe('reused')
    expect(reused.title).toBe('reused from run run-1')
  })
})
