import { describe, expect, it } from 'vitest'
import type { InputField, InputType } from '../api/types'
import { coerceInputs, fieldKind, initialValue, initialValues } from './coerce'

const f = (name: string, type: InputType, extra: Partial<InputField> = {}): InputField => ({ name, type, required: false, ...extra })

describe('fieldKind', () => {
  it('maps declared types to controls', () => {
    expect(fieldKind('string')).toBe('text')
    expect(fieldKind('number')).toBe('number')
    expect(fieldKind('boolean')).toBe('boolean')
    expect(fieldKind('array')).toBe('json')
    expect(fieldKind('object')).toBe('json')
  })
})

describe('initial values', () => {
  it('starts from defaults', () => {
    expect(initialValue(f('q', 'string', { default: 'x' }))).toBe('x')
    expect(initialValue(f('n', 'number', { default: 5 }))).toBe('5')
    expect(initialValue(f('b', 'boolean', { default: true }))).toBe(true)
    expect(initialValue(f('b', 'boolean'))).toBe(false)
    expect(initialValue(f('a', 'array', { default: [1, 2] }))).toBe('[1,2]')
    expect(initialValue(f('q', 'string'))).toBe('')
  })

  it('prefers remembered values of a compatible kind', () => {
    const fields = [f('q', 'string', { default: 'd' }), f('b', 'boolean'), f('n', 'number')]
    expect(initialValues(fields, { q: 'saved', b: 'oops', gone: 'x' })).toEqual({ q: 'saved', b: false, n: '' })
  })
})

describe('coerceInputs', () => {
  it('types each value', () => {
    const fields = [f('q', 'string'), f('n', 'number'), f('b', 'boolean'), f('a', 'array'), f('o', 'object')]
    const out = coerceInputs(fields, { q: 'hi', n: '3.5', b: true, a: '[1]', o: '{"k":1}' })
    expect(out).toEqual({ inputs: { q: 'hi', n: 3.5, b: true, a: [1], o: { k: 1 } }, errors: {} })
  })

  it('leaves out empty optional fields so defaults apply', () => {
    expect(coerceInputs([f('limit', 'number', { default: 5 })], { limit: '' })).toEqual({ inputs: {}, errors: {} })
  })

  it('reports empty required fields', () => {
    expect(coerceInputs([f('query', 'string', { required: true })], { query: '  ' }).errors).toEqual({ query: 'Required' })
  })

  it('does not require a required field that has a default', () => {
    expect(coerceInputs([f('q', 'string', { required: true, default: 'd' })], { q: '' }).errors).toEqual({})
  })

  it('reports bad numbers and bad JSON', () => {
    const fields = [f('n', 'number'), f('a', 'array'), f('o', 'object'), f('j', 'array')]
    const out = coerceInputs(fields, { n: 'abc', a: '{}', o: '[]', j: '[1,' })
    expect(out.errors).toEqual({
      n: 'Must be a number',
      a: 'Must be a JSON array',
      o: 'Must be a JSON object',
      j: 'Must be valid JSON',
    })
  })

  it('keeps strings verbatim, including spaces inside', () => {
    expect(coerceInputs([f('q', 'string')], { q: ' a b ' }).inputs).toEqual({ q: ' a b ' })
  })
})
