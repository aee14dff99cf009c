import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithApp } from '../test/renderWithApp'
import Canvas from './Canvas'
import { branchingGraph, largeGraph } from './fixtures'

afterEach(cleanup)

describe('Canvas', () => {
  it('is the Canvas landmark, with an empty state before a workflow opens', () => {
    renderWithApp(<Canvas />)
    expect(screen.getByRole('main', { name: 'Canvas' })).toBeTruthy()
    expect(screen.getByTestId('canvas-empty')).toBeTruthy()
    expect(screen.queryByTestId('node-__inputs')).toBeNull()
  })

  it('draws the open graph with its own buttons, and swaps graphs in place', () => {
    const { stores } = renderWithApp(<Canvas />).app
    act(() => stores.workflow.setState({ graph: branchingGraph() }))
    expect(screen.getAllByTestId(/^node-/)).toHaveLength(branchingGraph().nodes.length)
    expect(screen.getByRole('button', { name: 'Re-layout' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Fit view' })).toBeTruthy()

    act(() => stores.workflow.setState({ graph: largeGraph(12) }))
    expect(screen.getAllByTestId(/^node-/)).toHaveLength(largeGraph(12).nodes.length)
    expect(screen.queryByTestId('node-search')).toBeNull()
    act(() => screen.getByRole('button', { name: 'Re-layout' }).click())
    expect(screen.getAllByTestId(/^node-/)).toHaveLength(largeGraph(12).nodes.length)
  })

  it('lists at most eight inputs, then how many more', () => {
    const graph = branchingGraph()
    const inputs = Array.from({ length: 11 }, (_, i) => ({ name: `in${i}`, type: 'string' as const, required: false }))
    graph.nodes[0] = { kind: 'inputs', id: '__inputs', inputs }
    const { stores } = renderWithApp(<Canvas />).app
    act(() => stores.workflow.setState({ graph }))
    const node = screen.getByTestId('node-__inputs')
    expect(node.textContent).toContain('in7')
    expect(node.textContent).not.toContain('in8')
    expect(node.textContent).toContain('+3 more')
  })

  it('mirrors the finished run on the output node', () => {
    const { stores } = renderWithApp(<Canvas />).app
    act(() => stores.workflow.setState({ graph: branchingGraph() }))
    expect(screen.getByTestId('node-__output').dataset.status).toBe('idle')
    act(() => stores.run.setState({ status: 'completed' }))
    expect(screen.getByTestId('node-__output').dataset.status).toBe('completed')
  })
})
