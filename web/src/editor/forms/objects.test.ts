import { describe, expect, it } from 'vitest'
import { moveItem, renameKey, uniqueName, withKey } from './objects'

describe('document edits keep what was not touched', () => {
  it('withKey edits in place, appends new keys, removes on undefined', () => {
    const obj = { a: 1, b: 2, c: 3 }
    expect(Object.keys(withKey(obj, 'b', 20))).toEqual(['a', 'b', 'c'])
    expect(withKey(obj, 'b', 20).b).toBe(20)
    expect(Object.keys(withKey(obj, 'd', 4))).toEqual(['a', 'b', 'c', 'd'])
    expect(withKey(obj, 'b', undefined)).toEqual({ a: 1, c: 3 })
    expect(withKey(obj, 'zz', undefined)).toBe(obj)
    expect(obj).toEqual({ a: 1, b: 2, c: 3 })
  })

  it('renameKey keeps the position and refuses a taken name', () => {
    expect(Object.entries(renameKey({ a: 1, b: 2, c: 3 }, 'b', 'x') ?? {})).toEqual([
      ['a', 1],
      ['x', 2],
      ['c', 3],
    ])
    expect(renameKey({ a: 1, b: 2 }, 'a', 'b')).toBeUndefined()
  })

  it('uniqueName and moveItem', () => {
    expect(uniqueName('input', ['input_1', 'query', 'input_3'])).toBe('input_2')
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b'])
  })
})
