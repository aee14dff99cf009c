//! Tools and a harness for the forms' tests: schemas shaped like the real catalog's.
import type { InputSchema, ToolView } from '../../api/types'
import { toolView } from '../../test/toolView'
import type { Completer } from './types'

function tool(name: string, inputSchema: InputSchema): ToolView {
  return toolView(name, { inputSchema, outputs: [{ name: 'results', description: 'the results' }] })
}

export const searchTool = tool('search', {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'The question or search text' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'How many results to return' },
    filter: { type: 'object', description: 'MongoDB-style pre-filter' },
  },
  required: ['query'],
})

export const mergeTool = tool('merge', {
  type: 'object',
  properties: {
    arrays: { type: 'array', items: {}, description: 'The arrays to concatenate' },
    dedup: { type: 'boolean', default: false, description: 'Keep only the first occurrence of each item' },
  },
  required: ['arrays'],
})

export const conditionalTool = tool('conditional', {
  type: 'object',
  properties: {
    condition: { type: ['string', 'boolean'], format: 'expression', description: 'Expression deciding the branch' },
    then: { type: 'array', items: { type: 'string' }, format: 'step-ids', description: 'Step ids to run when the condition is true' },
    else: { type: 'array', items: { type: 'string' }, format: 'step-ids', description: 'Step ids to run when the condition is false' },
  },
  required: ['condition', 'then'],
})

export const httpTool = tool('http', {
  type: 'object',
  properties: {
    url: { type: 'string', format: 'uri' },
    method: { type: 'string', enum: ['GET', 'POST'], default: 'GET' },
    headers: { type: 'object', additionalProperties: { type: 'string' }, default: {}, description: 'Request headers' },
    prompt: { type: 'string', format: 'multiline' },
  },
  required: ['url'],
})

/** A completer that never answers, for forms whose completion a test does not exercise. */
export const silentCompleter: Completer = () => new Promise(() => {})
