import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithApp } from '../test/renderWithApp'
import { holdSeatGraph, sagaGraph } from './subWorkflowGraphs'
import SubWorkflowBar from './SubWorkflowBar'

afterEach(cleanup)

describe('SubWorkflowBar', () => {
  it('names the workflow, then the opened step and its child; the first item goes back', () => {
    const trail = [{ stepId: 'book', workflow: 'hold-seat', id: 'example:hold-seat', graph: holdSeatGraph() }]
    const { app } = renderWithApp(<SubWorkflowBar trail={trail} />)
    const of = sagaGraph()
    act(() => {
      app.stores.workflow.setState({ current: { key: 'example:trip-booking-saga', label: 'trip-booking-saga', text: '{}' }, graph: of, selected: 'book' })
      app.stores.canvas.getState().openSub(of, 0, trail[0])
    })

    const bar = screen.getByRole('navigation', { name: 'Sub-workflow' })
    expect(bar.textContent).toBe('trip-booking-saga›book (hold-seat)')
    expect(within(bar).getByText('book (hold-seat)').getAttribute('aria-current')).toBe('page')
    // Opening a sub-workflow leaves the calling workflow's selection behind.
    expect(app.stores.workflow.getState().selected).toBeUndefined()

    fireEvent.click(within(bar).getByRole('button', { name: 'trip-booking-saga' }))
    expect(app.stores.canvas.getState().sub?.trail).toEqual([])
  })

  it('goes back to any level above the last', () => {
    const graph = holdSeatGraph()
    const trail = [
      { stepId: 'book', workflow: 'hold-seat', id: 'example:hold-seat', graph },
      { stepId: 'hold', workflow: 'lock', id: 'file:lock.vai-workflow.json', graph },
    ]
    const { app } = renderWithApp(<SubWorkflowBar trail={trail} />)
    const of = sagaGraph()
    act(() => {
      app.stores.workflow.setState({ current: { key: 'k', label: 'Saga', text: '{}' }, graph: of })
      app.stores.canvas.getState().openSub(of, 0, trail[0])
      app.stores.canvas.getState().openSub(of, 1, trail[1])
    })
    expect(screen.getByRole('navigation', { name: 'Sub-workflow' }).textContent).toBe('Saga›book (hold-seat)›hold (lock)')

    fireEvent.click(screen.getByRole('button', { name: 'book (hold-seat)' }))
    expect(app.stores.canvas.getState().sub?.trail.map((l) => l.stepId)).toEqual(['book'])
  })
})
