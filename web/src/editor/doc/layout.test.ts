import { describe, expect, it } from 'vitest'
import type { Workflow } from '../../api/types'
import { searchDoc } from '../test/fixtures'
import { addNote, deleteNotes, newNoteId, notesOf, positionsOf, removePositions, setPositions, updateNote } from './layout'

describe('positions (move)', () => {
  it('writes ui.positions only when something is moved, rounded, as the last key', () => {
    const doc = searchDoc()
    expect(positionsOf(doc)).toBeUndefined()
    const next = setPositions(doc, { a: { x: 10.4, y: 20.6 } })
    expect(next.ui).toEqual({ positions: { a: { x: 10, y: 21 } } })
    expect(Object.keys(next).at(-1)).toBe('ui')
    expect(next.steps).toBe(doc.steps)
  })

  it('keeps other positions and returns the same document when nothing moved', () => {
    const doc = setPositions(searchDoc(), { a: { x: 1, y: 1 }, b: { x: 2, y: 2 } })
    const moved = setPositions(doc, { b: { x: 5, y: 5 } })
    expect(moved.ui?.positions).toEqual({ a: { x: 1, y: 1 }, b: { x: 5, y: 5 } })
    expect(moved.ui?.positions?.a).toBe(doc.ui?.positions?.a)
    expect(setPositions(moved, { b: { x: 5, y: 5 } })).toBe(moved)
  })

  it('removes positions, and the ui key when nothing is left in it', () => {
    const doc = setPositions(searchDoc(), { a: { x: 1, y: 1 } })
    expect(removePositions(doc, ['a'])).not.toHaveProperty('ui')
    expect(removePositions(doc, ['zz'])).toBe(doc)
  })

  it('keeps unknown keys of ui', () => {
    const doc: Workflow = { ...searchDoc(), ui: { theme: 'x' } as never }
    expect(setPositions(doc, { a: { x: 0, y: 0 } }).ui).toEqual({ theme: 'x', positions: { a: { x: 0, y: 0 } } })
  })
})

describe('notes', () => {
  it('adds, edits and deletes notes under ui.notes', () => {
    let doc = searchDoc()
    const id = newNoteId(doc)
    expect(id).toBe('note_1')
    doc = addNote(doc, { id, x: 0, y: 0, text: 'Hello' })
    expect(newNoteId(doc)).toBe('note_2')
    const edited = updateNote(doc, id, { text: '**Hi**', width: 200 })
    expect(notesOf(edited)).toEqual([{ id, x: 0, y: 0, text: '**Hi**', width: 200 }])
    expect(updateNote(edited, id, { text: '**Hi**' })).toBe(edited)
    expect(updateNote(edited, 'nope', { text: 'x' })).toBe(edited)
    expect(deleteNotes(edited, new Set([id]))).not.toHaveProperty('ui')
  })
})
