import { describe, expect, it } from 'vitest'
import type { Step, Workflow } from '../../api/types'
import { noteNodeId } from './model'
import { followKeys, idOfKey, initialKeys, keyOf } from './nodeKeys'

const step = (id: string): Step => ({ id, tool: 'template', inputs: { text: id } })
const doc = (...ids: string[]): Workflow => ({ name: 'w', steps: ids.map(step) })

describe('node keys', () => {
  it('start as the step ids; other nodes are their own key', () => {
    const keys = initialKeys(doc('a', 'b'))
    expect(keys).toEqual({ a: 'a', b: 'b' })
    expect(keyOf(keys, noteNodeId('n1'))).toBe(noteNodeId('n1'))
    expect(idOfKey(keys, '__output')).toBe('__output')
  })

  it('stay the same object while no step id changes', () => {
    const before = doc('a', 'b')
    const keys = initialKeys(before)
    expect(followKeys(keys, before, { ...before, name: 'x' })).toBe(keys)
    expect(followKeys(keys, before, { ...before, steps: [step('a'), { ...step('b'), name: 'B' }] })).toBe(keys)
  })

  it('follow a rename, and its undo, and map back to the step', () => {
    const before = doc('a', 'b', 'c')
    const keys = initialKeys(before)
    const renamed = { ...before, steps: [step('a'), step('x'), step('c')] }
    const after = followKeys(keys, before, renamed, { b: 'x' })
    expect(after).toEqual({ a: 'a', x: 'b', c: 'c' })
    expect(keyOf(after, 'x')).toBe('b')
    expect(idOfKey(after, 'b')).toBe('x')
    // Undo has no rename list: the step back in the same place takes the key back.
    expect(followKeys(after, renamed, before)).toEqual({ a: 'a', b: 'b', c: 'c' })
  })

  it('follow a rename that moved nothing else even without the rename list', () => {
    const before = doc('a', 'b')
    expect(followKeys(initialKeys(before), before, doc('a', 'y'))).toEqual({ a: 'a', y: 'b' })
  })

  it('key a new step by its id, made unique when a renamed step holds that key', () => {
    const before = doc('a', 'b')
    const renamed = followKeys(initialKeys(before), before, doc('a', 'x'), { b: 'x' })
    const added = followKeys(renamed, doc('a', 'x'), doc('a', 'x', 'b'))
    expect(added).toEqual({ a: 'a', x: 'b', b: 'b~2' })
    expect(new Set(Object.values(added)).size).toBe(3)
    expect(idOfKey(added, 'b~2')).toBe('b')
    expect(idOfKey(added, 'b')).toBe('x')
  })

  it('do not hand a deleted step key to a step that did not replace it', () => {
    const before = doc('a', 'b', 'c')
    const keys = initialKeys(before)
    // b deleted: c moves up into b's place but keeps its own key.
    expect(followKeys(keys, before, doc('a', 'c'))).toEqual({ a: 'a', c: 'c' })
    // Pasted steps go at the end and get their own ids.
    expect(followKeys(keys, before, doc('a', 'b', 'c', 'p1', 'p2'))).toEqual({ a: 'a', b: 'b', c: 'c', p1: 'p1', p2: 'p2' })
  })
})
