import { act, cleanup, screen, within } from '@testing-library/react'
import { ReactFlowProvider } from '@xyflow/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { StepState, Usage } from '../api/types'
import { renderWithApp } from '../test/renderWithApp'
import CanvasFlow from './CanvasFlow'
import { CanvasScopeContext } from './canvasScope'
import { branchingGraph } from './fixtures'

function renderCanvas() {
  const graph = branchingGraph()
  const rendered = renderWithApp(
    <CanvasScopeContext value={{ path: [], edges: () => graph.edges }}>
      <ReactFlowProvider>
        <div style={{ width: 1000, height: 600 }}>
          <CanvasFlow graph={graph} />
        </div>
      </ReactFlowProvider>
    </CanvasScopeContext>,
  )
  return rendered.app.stores
}

const done = (durationMs: number): StepState => ({ status: 'completed', durationMs })
const local: Usage = { embedTokens: 1200, cost: { usd: 0, pricedAt: '2026-11-01' } }
const unpriced: Usage = { llmInputTokens: 900, llmOutputTokens: 120, cost: { usd: null, pricedAt: '2026-11-01', reason: 'no price for mystery-llm' } }

afterEach(cleanup)

describe('the cost and time overlay', () => {
  it("shows each step's cost and tokens, and rings the critical path, only while it is on", () => {
    const stores = renderCanvas()
    act(() =>
      stores.run.setState({
        status: 'completed',
        // search → check → answer (slow) → log; fallback was skipped.
        steps: {
          search: { ...done(120), usage: local },
          check: done(3),
          answer: { ...done(900), usage: unpriced },
          fallback: { status: 'skipped', reason: 'else not taken' },
          log: done(1),
        },
      }),
    )
    const node = (id: string) => screen.getByTestId(`node-${id}`)
    expect(within(node('search')).queryByTestId('step-cost')).toBeNull()
    expect(node('answer').dataset.critical).toBeUndefined()

    act(() => stores.canvas.getState().setOverlay(true))
    expect(within(node('search')).getByTestId('step-cost').textContent).toBe('$0embed 1.2k')
    const dash = within(node('answer')).getByText('—')
    expect(dash.title).toBe('no price for mystery-llm')
    // A step that reported no usage keeps its summary.
    expect(within(node('check')).queryByTestId('step-cost')).toBeNull()
    expect(node('check').textContent).toContain('{{ inputs.query }}')
    // The duration stays on the line above.
    expect(within(node('answer')).getByTestId('step-time').textContent).toBe('900 ms')
    // A skipped step keeps its reason.
    expect(node('fallback').textContent).toContain('else not taken')

    for (const id of ['search', 'check', 'answer', 'log']) expect(node(id).dataset.critical, id).toBe('true')
    expect(node('fallback').dataset.critical).toBeUndefined()

    act(() => stores.canvas.getState().setOverlay(false))
    expect(node('answer').dataset.critical).toBeUndefined()
    expect(within(node('search')).queryByTestId('step-cost')).toBeNull()
  })

  it('is remembered in this browser', () => {
    const stores = renderCanvas()
    act(() => stores.canvas.getState().setOverlay(true))
    cleanup()
    expect(renderCanvas().canvas.getState().overlay).toBe(true)
  })
})
