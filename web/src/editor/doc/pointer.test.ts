import { describe, expect, it } from 'vitest'
import { shareStructure, jsonEqual } from './json'
import { comparePointersDescending, formatPointer, getAt, parsePointer, REMOVE, updateAt } from './pointer'

describe('JSON pointers', () => {
  it('parse and format with ~0 and ~1 escapes', () => {
    expect(parsePointer('/steps/0/inputs/a~1b~0c')).toEqual(['steps', '0', 'inputs', 'a/b~c'])
    expect(formatPointer(['steps', 0, 'a/b~c'])).toBe('/steps/0/a~1b~0c')
    expect(parsePointer('')).toEqual([])
  })

  it('reads nested values', () => {
    const doc = { steps: [{ inputs: { arrays: ['x', 'y'] } }] }
    expect(getAt(doc, parsePointer('/steps/0/inputs/arrays/1'))).toBe('y')
    expect(getAt(doc, parsePointer('/steps/3/inputs'))).toBeUndefined()
  })

  it('updates copy-on-write: only the path is copied', () => {
    const doc = { a: { b: 1 }, c: { d: [1, 2] } }
    const next = updateAt(doc, ['c', 'd', '1'], () => 3)
    expect(next).toEqual({ a: { b: 1 }, c: { d: [1, 3] } })
    expect(next.a).toBe(doc.a)
    expect(doc.c.d).toEqual([1, 2])
  })

  it('removes object keys and array elements, keeping key order', () => {
    const doc = { x: 1, y: 2, z: [1, 2, 3] }
    expect(Object.keys(updateAt(doc, ['y'], () => REMOVE))).toEqual(['x', 'z'])
    expect(updateAt(doc, ['z', '0'], () => REMOVE).z).toEqual([2, 3])
  })

  it('leaves the document alone for a missing path or an unchanged value', () => {
    const doc = { a: [1] }
    expect(updateAt(doc, ['b', 'c'], () => 1)).toBe(doc)
    expect(updateAt(doc, ['a', '5'], () => 1)).toBe(doc)
    expect(updateAt(doc, ['a', '0'], () => 1)).toBe(doc)
  })

  it('orders pointers so later array elements are removed first', () => {
    const list = ['/steps/2/inputs/arrays/0', '/steps/10/x', '/steps/2/inputs/arrays/1', '/output/a']
    expect(list.sort(comparePointersDescending)).toEqual(['/steps/10/x', '/steps/2/inputs/arrays/1', '/steps/2/inputs/arrays/0', '/output/a'])
  })
})

describe('shareStructure', () => {
  it('reuses every subtree that did not change', () => {
    const prev = {
      name: 'w',
      steps: [
        { id: 'a', inputs: { q: 1 } },
        { id: 'b', inputs: { q: 2 } },
      ],
    }
    const next = structuredClone(prev)
    next.steps[1].inputs.q = 3
    const shared = shareStructure(prev, next)
    expect(shared).toEqual(next)
    expect(shared.steps[0]).toBe(prev.steps[0])
    expect(shared.steps[1]).not.toBe(prev.steps[1])
    expect(shareStructure(prev, structuredClone(prev))).toBe(prev)
  })

  it('treats a changed key order as a change', () => {
    const prev = { a: 1, b: 2 }
    const next = shareStructure(prev, { b: 2, a: 1 })
    expect(next).not.toBe(prev)
    expect(Object.keys(next)).toEqual(['b', 'a'])
  })

  it('jsonEqual ignores key order', () => {
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true)
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true)
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(jsonEqual([1], { 0: 1 })).toBe(false)
  })
})
