import { act, cleanup } from '@testing-library/react'
import { Position, ReactFlowProvider } from '@xyflow/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithApp } from '../test/renderWithApp'
import { CanvasScopeContext } from './canvasScope'
import { CRITICAL_COLOR } from './criticalPath'
import FlowEdge from './FlowEdge'
import { branchingGraph } from './fixtures'
import { graphToFlow } from './toFlow'

// jsdom has no layout, so React Flow cannot place edges itself: draw one edge directly.
function renderEdge(kind: 'reference' | 'else') {
  const graph = branchingGraph()
  const edge = graphToFlow(graph).edges.find((e) => e.data?.kind === kind)!
  const { app, container } = renderWithApp(
    <CanvasScopeContext value={{ path: [], edges: () => graph.edges }}>
      <ReactFlowProvider>
        <svg>
          <FlowEdge
            id={edge.id}
            source={edge.source}
            target={edge.target}
            data={edge.data}
            style={edge.style}
            sourceX={0}
            sourceY={0}
            targetX={200}
            targetY={50}
            sourcePosition={Position.Right}
            targetPosition={Position.Left}
            selected={false}
            selectable
            deletable={false}
            animated={false}
            type="flow"
          />
        </svg>
      </ReactFlowProvider>
    </CanvasScopeContext>,
  )
  return { edge, runs: app.stores.run, canvas: app.stores.canvas, path: () => container.querySelector('path.react-flow__edge-path') as SVGPathElement }
}

afterEach(cleanup)

describe('FlowEdge', () => {
  it('animates only while its target step runs', () => {
    const { edge, runs, path } = renderEdge('reference')
    expect(path().dataset.kind).toBe('reference')
    expect(path().dataset.flowing).toBeUndefined()
    act(() => runs.setState({ steps: { [edge.target]: { status: 'running' } } }))
    expect(path().dataset.flowing).toBe('true')
    expect(path().style.animation).toContain('dashdraw')
    act(() => runs.setState({ steps: { [edge.target]: { status: 'completed', durationMs: 3 } } }))
    expect(path().dataset.flowing).toBeUndefined()
  })

  it('takes the critical path colour, with the overlay on, when both its steps are on the path', () => {
    const { runs, canvas, path } = renderEdge('reference')
    act(() => runs.setState({ steps: { search: { status: 'completed', durationMs: 50 }, check: { status: 'completed', durationMs: 2 } } }))
    expect(path().dataset.critical).toBeUndefined()
    act(() => canvas.getState().setOverlay(true))
    expect(path().dataset.critical).toBe('true')
    expect(path().style.stroke).toBe(hexToRgb(CRITICAL_COLOR))
  })

  it('keeps the kind style (else is dashed) when idle', () => {
    const { path } = renderEdge('else')
    expect(path().style.strokeDasharray).toBe('6 4')
  })
})

function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  return `rgb(${r}, ${g}, ${b})`
}
