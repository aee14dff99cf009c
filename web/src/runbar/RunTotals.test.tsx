import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithApp } from '../test/renderWithApp'
import CostOverlaySwitch from './CostOverlaySwitch'
import RunTotals from './RunTotals'

afterEach(cleanup)

describe('the run bar with the cost and time overlay', () => {
  it("shows the run's totals once the switch is on", () => {
    const { app } = renderWithApp(
      <>
        <CostOverlaySwitch />
        <RunTotals />
      </>,
    )
    act(() =>
      app.stores.run.setState({
        status: 'completed',
        usage: { llmInputTokens: 1500, llmOutputTokens: 200, embedTokens: 40, cost: { usd: 0.0021, pricedAt: '2026-11-01' } },
      }),
    )
    expect(screen.queryByTestId('run-totals')).toBeNull()
    fireEvent.click(screen.getByRole('switch', { name: 'Cost & time' }))
    expect(app.stores.canvas.getState().overlay).toBe(true)
    expect(screen.getByTestId('run-totals').textContent).toBe('in 1.5kout 200embed 40$0.0021')
    expect(screen.getByText('in 1.5k').title).toBe('LLM input tokens: 1,500')
  })
})
