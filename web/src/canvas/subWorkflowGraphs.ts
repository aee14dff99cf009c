//! A saga and the sub-workflow its `book` step calls, for the sub-workflow tests.
import type { GraphNode, GraphView, JsonValue } from '../api/types'

const NO_COST = { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 }

function step(id: string, tool: string): GraphNode {
  return { kind: 'step', id, name: id, tool, category: 'control_flow', color: '#90A4AE', icon: 'CallSplit', continueOnError: false }
}

function graphOf(name: string, steps: [string, string][]): GraphView {
  return {
    name,
    nodes: [{ kind: 'inputs', id: '__inputs', inputs: [] }, ...steps.map(([id, tool]) => step(id, tool)), { kind: 'output', id: '__output', fields: ['id'] }],
    edges: [],
    layers: steps.map(([id]) => [id]),
    estimate: { fixed: NO_COST, perItem: NO_COST },
    runnable: true,
  }
}

export const sagaDefinition: JsonValue = {
  name: 'Trip Booking Saga',
  steps: [
    { id: 'book', tool: 'workflow', inputs: { workflow: 'hold-seat', inputs: {} } },
    { id: 'pay', tool: 'http', inputs: { url: 'http://pay' } },
  ],
}

export const sagaGraph = (): GraphView =>
  graphOf('Trip Booking Saga', [
    ['book', 'workflow'],
    ['pay', 'http'],
  ])
export const holdSeatGraph = (): GraphView =>
  graphOf('Hold Seat', [
    ['hold', 'http'],
    ['held', 'fail'],
  ])
