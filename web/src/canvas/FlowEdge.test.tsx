import { act, cleanup } from '@testing-library/react'
import { Position, ReactFlowProvider } from '@xyflow/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithApp } from '../test/renderWithApp'
import FlowEdge from './FlowEdge'
import { branchingGraph } from './fixtures'
import { graphToFlow } from './toFlow'

// jsdom has no layout, so React Flow cannot place edges itself: draw one edge directly.
function renderEdge(kind: 'reference' | 'else') {
  const edge = graphToFlow(branchingGraph()).edges.find((e) => e.data?.kind === kind)!
  const { app, container } = renderWithApp(
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
    </ReactFlowProvider>,
  )
  return { edge, runs: app.stores.run, path: () => container.querySelector('path.react-flow__edge-path') as SVGPathElement }
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

  it('keeps the kind style (else is dashed) when idle', () => {
    const { path } = renderEdge('else')
    expect(path().style.strokeDasharray).toBe('6 4')
  })
})
