import { describe, expect, it } from 'vitest'
import { asTable, cellText } from './tableRows'

describe('asTable', () => {
  it('accepts an array of objects with the union of their keys in order', () => {
    const t = asTable([
      { a: 1, b: 2 },
      { b: 3, c: 4 },
    ])
    expect(t).toEqual({
      path: '',
      columns: ['a', 'b', 'c'],
      rows: [
        { a: 1, b: 2 },
        { b: 3, c: 4 },
      ],
    })
  })

  it('finds the single array of objects inside an object', () => {
    const t = asTable({ results: [{ text: 'x', score: 0.5 }], resultCount: 1 })
    expect(t?.path).toBe('results')
    expect(t?.columns).toEqual(['text', 'score'])
  })

  it('rejects scalars, empty arrays, arrays of scalars and mixed arrays', () => {
    expect(asTable(3)).toBeUndefined()
    expect(asTable([])).toBeUndefined()
    expect(asTable([1, 2])).toBeUndefined()
    expect(asTable([{ a: 1 }, 2])).toBeUndefined()
    expect(asTable([[1], [2]])).toBeUndefined()
    expect(asTable([{}, {}])).toBeUndefined()
  })

  it('is ambiguous with two arrays of objects', () => {
    expect(asTable({ a: [{ x: 1 }], b: [{ y: 1 }] })).toBeUndefined()
  })

  it('renders cells on one line, truncated', () => {
    expect(cellText('abc')).toBe('abc')
    expect(cellText({ a: 1 })).toBe('{"a":1}')
    expect(cellText(undefined)).toBe('')
    expect(cellText('x'.repeat(300), 10)).toBe('xxxxxxxxx…')
  })
})
