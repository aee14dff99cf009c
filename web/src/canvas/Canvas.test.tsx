import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { initialRunState } from '../state/runReducer'
import { renderWithApp } from '../test/renderWithApp'
import Canvas from './Canvas'
import { branchingGraph, largeGraph } from './fixtures'
import { holdSeatGraph, sagaDefinition, sagaGraph } from './subWorkflowGraphs'

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

  it('opens a workflow step’s sub-workflow with its child run’s statuses, and goes back', async () => {
    const { app } = renderWithApp(<Canvas />)
    const { stores } = app
    const summary = { id: 'example:hold-seat', name: 'Hold Seat', source: 'example' as const, stepCount: 2, inputs: [], readOnly: true }
    const getWorkflow = vi.spyOn(app.api, 'getWorkflow').mockResolvedValue({ summary, text: '{"steps": []}', version: 'v1' })
    vi.spyOn(app.api, 'plan').mockResolvedValue({ valid: true, diagnostics: [], graph: holdSeatGraph() })
    act(() => {
      stores.workflow.setState({
        current: { key: 'example:trip-booking-saga', label: 'Trip Booking Saga', text: '{}', definition: sagaDefinition },
        graph: sagaGraph(),
      })
      stores.workflow.getState().setLibrary([summary])
      stores.run.setState({
        runId: 'r1',
        status: 'running',
        steps: { book: { status: 'running' } },
        children: { book: { ...initialRunState, status: 'running', steps: { hold: { status: 'completed', durationMs: 5 }, held: { status: 'running' } } } },
      })
    })
    expect(screen.queryByRole('button', { name: /Open sub-workflow/ })).toBeTruthy()
    expect(screen.getByTestId('node-pay').textContent).not.toContain('open')

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Open sub-workflow hold-seat' })))
    expect(getWorkflow).toHaveBeenCalledWith('example:hold-seat')
    expect(screen.getByRole('navigation', { name: 'Sub-workflow' }).textContent).toBe('Trip Booking Saga›book (hold-seat)')
    expect(screen.queryByTestId('node-book')).toBeNull()
    expect(screen.getByTestId('node-hold').dataset.status).toBe('completed')
    expect(screen.getByTestId('node-held').dataset.status).toBe('running')
    expect(screen.getByTestId('node-__output').dataset.status).toBe('pending')

    // Live: the child run's next event reaches the drawn sub-workflow.
    act(() =>
      stores.run.setState((s) => ({
        children: { book: { ...s.children.book, status: 'completed', steps: { ...s.children.book.steps, held: { status: 'skipped' } } } },
      })),
    )
    expect(screen.getByTestId('node-held').dataset.status).toBe('skipped')
    expect(screen.getByTestId('node-__output').dataset.status).toBe('completed')

    fireEvent.click(screen.getByRole('button', { name: 'Trip Booking Saga' }))
    expect(screen.queryByRole('navigation', { name: 'Sub-workflow' })).toBeNull()
    expect(screen.getByTestId('node-book').dataset.status).toBe('running')
    expect(screen.queryByTestId('node-hold')).toBeNull()
  })

  it('leaves an opened sub-workflow behind when another workflow opens', () => {
    const { stores } = renderWithApp(<Canvas />).app
    const saga = sagaGraph()
    act(() => {
      stores.workflow.setState({ current: { key: 'k', label: 'Saga', text: '{}', definition: sagaDefinition }, graph: saga })
      stores.canvas.getState().openSub(saga, 0, { stepId: 'book', workflow: 'hold-seat', id: 'example:hold-seat', graph: holdSeatGraph() })
    })
    expect(screen.getByTestId('node-hold')).toBeTruthy()
    act(() => stores.workflow.setState({ graph: branchingGraph() }))
    expect(screen.queryByTestId('node-hold')).toBeNull()
    expect(screen.queryByRole('navigation', { name: 'Sub-workflow' })).toBeNull()
    expect(screen.getByTestId('node-search')).toBeTruthy()
  })
})
