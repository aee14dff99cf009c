import { describe, expect, it } from 'vitest'
import type { WorkflowSummary } from '../api/types'
import { branchingGraph } from './fixtures'
import { childWorkflowId, childWorkflowName, crumbs } from './subWorkflow'

const listed = (...ids: string[]): WorkflowSummary[] =>
  ids.map((id) => ({ id, name: id.split(':')[1], source: id.startsWith('file:') ? 'file' : 'example', stepCount: 1, inputs: [], readOnly: true }))

describe('childWorkflowId', () => {
  it('prefers a file beside the workflow, then a built-in, then an example', () => {
    const all = listed('example:hold-seat', 'builtin:hold-seat', 'file:hold-seat.vai-workflow.json')
    expect(childWorkflowId('hold-seat', all)).toBe('file:hold-seat.vai-workflow.json')
    expect(childWorkflowId('hold-seat', all.slice(0, 2))).toBe('builtin:hold-seat')
    expect(childWorkflowId('hold-seat', all.slice(0, 1))).toBe('example:hold-seat')
  })

  it('takes a name ending in .json as the file name itself', () => {
    expect(childWorkflowId('seat.vai-workflow.json', listed('file:seat.vai-workflow.json'))).toBe('file:seat.vai-workflow.json')
    expect(childWorkflowId('seat.vai-workflow.json', listed('example:seat'))).toBeUndefined()
  })

  it('finds nothing the library does not list', () => {
    expect(childWorkflowId('hold-seat', listed('example:trip-booking-saga'))).toBeUndefined()
    expect(childWorkflowId('hold-seat', [])).toBeUndefined()
  })
})

describe('childWorkflowName', () => {
  const definition = {
    steps: [
      { id: 'book', tool: 'workflow', inputs: { workflow: 'hold-seat', inputs: {} } },
      { id: 'dynamic', tool: 'workflow', inputs: { workflow: '{{ inputs.which }}' } },
      { id: 'pay', tool: 'http', inputs: { workflow: 'not-a-child' } },
    ],
  }

  it('reads the child a workflow step names', () => {
    expect(childWorkflowName(definition, 'book')).toBe('hold-seat')
  })

  it('has none for a template, another tool, an unknown step or no definition', () => {
    expect(childWorkflowName(definition, 'dynamic')).toBeUndefined()
    expect(childWorkflowName(definition, 'pay')).toBeUndefined()
    expect(childWorkflowName(definition, 'nope')).toBeUndefined()
    expect(childWorkflowName(undefined, 'book')).toBeUndefined()
  })
})

describe('crumbs', () => {
  it('names the workflow, then each opened step with its child', () => {
    const graph = branchingGraph()
    const trail = [
      { stepId: 'book', workflow: 'hold-seat', id: 'example:hold-seat', graph },
      { stepId: 'inner', workflow: 'lock.json', id: 'file:lock.json', graph },
    ]
    expect(crumbs('trip-booking-saga', [])).toEqual(['trip-booking-saga'])
    expect(crumbs('trip-booking-saga', trail)).toEqual(['trip-booking-saga', 'book (hold-seat)', 'inner (lock.json)'])
  })
})
