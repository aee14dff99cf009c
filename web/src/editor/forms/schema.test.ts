import { describe, expect, it } from 'vitest'
import type { PropertySchema } from '../../api/types'
import { insideTemplate } from './completionText'
import { placeDiagnostics } from './diagnostics'
import { defaultHint, fromText, widgetFor } from './schema'
import { convert } from './values'

describe('widgetFor reads the declared schema', () => {
  const cases: [PropertySchema, unknown, string][] = [
    [{ type: 'string' }, undefined, 'text'],
    [{ type: 'string', format: 'multiline' }, 'x', 'multiline'],
    [{ type: ['string', 'boolean'], format: 'expression' }, 'a > 1', 'expression'],
    [{ type: ['string', 'boolean'], format: 'expression' }, true, 'boolean'],
    [{ type: 'integer', default: 10 }, 3, 'integer'],
    [{ type: 'number' }, 0.5, 'number'],
    [{ type: 'string', enum: ['GET', 'POST'] }, 'GET', 'enum'],
    [{ type: 'array', items: { type: 'string' }, format: 'step-ids' }, ['a'], 'step-ids'],
    [{ type: 'array', items: {} }, [], 'array'],
    [{ type: 'object', additionalProperties: { type: 'string' } }, {}, 'map'],
    [{ type: 'object', additionalProperties: true }, {}, 'map'],
    [{ type: 'object' }, {}, 'json'],
    [{}, 'x', 'any'],
  ]
  it.each(cases)('%j holding %j → %s', (schema, value, widget) => {
    expect(widgetFor(schema, value as never)).toBe(widget)
  })

  it('hints the declared default', () => {
    expect(defaultHint({ type: 'integer', default: 10 })).toBe('default: 10')
    expect(defaultHint({ type: 'string', default: 'rerank-2.5' })).toBe('default: rerank-2.5')
    expect(defaultHint({ type: 'string' })).toBeUndefined()
  })

  it('converts template-mode text back to a typed value only when it reads as one', () => {
    expect(fromText('integer', ' 12 ')).toBe(12)
    expect(fromText('integer', '1.5')).toBeUndefined()
    expect(fromText('boolean', 'false')).toBe(false)
    expect(fromText('array', '["a"]')).toEqual(['a'])
    expect(fromText('array', '{{ x.output }}')).toBeUndefined()
  })
})

describe('field helpers', () => {
  it('places a diagnostic under the most specific field shown', () => {
    const d = (field?: string) => ({ severity: 'error' as const, code: 'INVALID_INPUT' as const, message: field ?? 'none', field })
    const placed = placeDiagnostics(
      [d('inputs.arrays[1]'), d('inputs.arrays'), d('inputs.arraysX'), d('retry.maxAttempts'), d()],
      ['inputs.arrays', 'inputs.arrays[1]', 'retry'],
    )
    expect(placed.at('inputs.arrays[1]').map((x) => x.message)).toEqual(['inputs.arrays[1]'])
    expect(placed.at('inputs.arrays').map((x) => x.message)).toEqual(['inputs.arrays'])
    expect(placed.at('retry').map((x) => x.message)).toEqual(['retry.maxAttempts'])
    expect(placed.rest.map((x) => x.message)).toEqual(['inputs.arraysX', 'none'])
  })

  it('knows when the cursor is inside a template', () => {
    expect(insideTemplate('a {{ b', 6)).toBe(true)
    expect(insideTemplate('a {{ b }} c', 11)).toBe(false)
    expect(insideTemplate('a {{ b }} c', 5)).toBe(true)
    expect(insideTemplate('no template', 3)).toBe(false)
  })

  it('converts a default between kinds, keeping what carries over', () => {
    expect(convert('10', 'number')).toBe(10)
    expect(convert('ten', 'number')).toBe(0)
    expect(convert(10, 'string')).toBe('10')
    expect(convert('true', 'boolean')).toBe(true)
    expect(convert('["a"]', 'json')).toEqual(['a'])
  })
})
