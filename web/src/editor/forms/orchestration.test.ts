import { describe, expect, it } from 'vitest'
import type { WorkflowSummary } from '../../api/types'
import { childWorkflows, expectsOf, expectsRows, withCompensationTool } from './orchestration'

const summary = (id: string, name: string, source: WorkflowSummary['source']): WorkflowSummary => ({
  id,
  name,
  source,
  readOnly: source !== 'file',
  stepCount: 1,
  inputs: [],
})

describe('childWorkflows', () => {
  it('offers built-ins by name and files by stem, never examples or the workflow itself', () => {
    const library = [
      summary('builtin:rag', 'rag', 'builtin'),
      summary('example:demo', 'Demo', 'example'),
      summary('file:book-flight.vai-workflow.json', 'Book a flight', 'file'),
      summary('file:trip.vai-workflow.json', 'Trip', 'file'),
    ]
    expect(childWorkflows(library, 'file:trip.vai-workflow.json')).toEqual([
      { value: 'rag', label: 'rag', inputs: [] },
      { value: 'book-flight', label: 'Book a flight (book-flight)', inputs: [] },
    ])
  })
})

describe('expects as rows', () => {
  const expects = {
    type: 'object',
    description: 'Approval',
    properties: {
      approved: { type: 'boolean', description: 'Go ahead?' },
      seats: { type: 'integer', minimum: 1, enum: [1, 2] },
      class: { enum: ['economy', 'business'] },
    },
    required: ['approved'],
  }

  it('reads one row per property, keeping what the rows do not show', () => {
    expect(expectsRows(expects)).toEqual([
      { name: 'approved', type: 'boolean', required: true, choices: '', extra: { description: 'Go ahead?' } },
      { name: 'seats', type: 'integer', required: false, choices: '1, 2', extra: { minimum: 1 } },
      { name: 'class', type: 'string', required: false, choices: 'economy, business', extra: {} },
    ])
    expect(expectsRows(undefined)).toEqual([])
  })

  it('writes the same schema back, and rows as they are edited', () => {
    expect(expectsOf(expectsRows(expects), expects)).toEqual({
      ...expects,
      properties: { ...expects.properties, class: { type: 'string', enum: ['economy', 'business'] } },
    })
    const rows = [
      { name: 'n', type: 'number' as const, required: true, choices: '1.5, x, 2', extra: {} },
      { name: '', type: 'string' as const, required: true, choices: '', extra: {} },
      { name: 'ok', type: 'boolean' as const, required: false, choices: 'true, maybe', extra: {} },
      { name: 'n', type: 'string' as const, required: false, choices: '', extra: {} },
    ]
    expect(expectsOf(rows)).toEqual({
      type: 'object',
      properties: { n: { type: 'number', enum: [1.5, 2] }, ok: { type: 'boolean', enum: [true] } },
      required: ['n'],
    })
  })
})

describe('withCompensationTool', () => {
  it('sets the tool, keeping the inputs, and no tool removes the compensation', () => {
    expect(withCompensationTool(undefined, 'http')).toEqual({ tool: 'http', inputs: {} })
    expect(withCompensationTool({ tool: 'http', inputs: { url: 'x' }, timeoutMs: 5 }, 'echo')).toEqual({ tool: 'echo', inputs: { url: 'x' }, timeoutMs: 5 })
    expect(withCompensationTool({ tool: 'http', inputs: {} }, '')).toBeUndefined()
  })
})
