import { describe, expect, it } from 'vitest'
import type { Workflow } from '../../api/types'
import { emptyHistory, HISTORY_LIMIT, record, redo, seal, undo } from './history'

const doc = (name: string): Workflow => ({ name, steps: [] })

describe('history', () => {
  it('undoes and redoes whole documents in order', () => {
    const [a, b, c] = [doc('a'), doc('b'), doc('c')]
    let h = record(emptyHistory, a)
    h = record(h, b)
    const u1 = undo(h, c)!
    expect(u1.doc).toBe(b)
    const u2 = undo(u1.history, u1.doc)!
    expect(u2.doc).toBe(a)
    expect(undo(u2.history, u2.doc)).toBeUndefined()
    const r1 = redo(u2.history, u2.doc)!
    expect(r1.doc).toBe(b)
    const r2 = redo(r1.history, r1.doc)!
    expect(r2.doc).toBe(c)
    expect(redo(r2.history, r2.doc)).toBeUndefined()
  })

  it('a new edit clears the redo stack', () => {
    const h = record(emptyHistory, doc('a'))
    const u = undo(h, doc('b'))!
    expect(record(u.history, u.doc).future).toEqual([])
  })

  it('coalesces successive edits with the same key into one entry', () => {
    const start = doc('start')
    let h = record(emptyHistory, start, 'step:a:inputs.query')
    h = record(h, doc('h'), 'step:a:inputs.query')
    h = record(h, doc('he'), 'step:a:inputs.query')
    expect(h.past).toEqual([start])
    h = record(h, doc('hel'), 'step:a:name')
    expect(h.past).toHaveLength(2)
    h = record(seal(h), doc('x'), 'step:a:name')
    expect(h.past).toHaveLength(3)
  })

  it('never coalesces edits without a key', () => {
    let h = record(emptyHistory, doc('a'))
    h = record(h, doc('b'))
    expect(h.past).toHaveLength(2)
  })

  it('keeps at most HISTORY_LIMIT entries, dropping the oldest', () => {
    let h = emptyHistory
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) h = record(h, doc(String(i)))
    expect(h.past).toHaveLength(HISTORY_LIMIT)
    expect(h.past[0].name).toBe('5')
  })
})
