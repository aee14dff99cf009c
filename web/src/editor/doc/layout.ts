//! What the document keeps about the canvas, under the top-level `ui` key: node positions (only
//! once the person has moved something — a file without them is laid out automatically) and
//! sticky notes. The engine ignores `ui`.
import type { Note, Workflow, WorkflowUi } from '../../api/types'
import { isObject } from './json'
import type { XY } from './model'

type Positions = NonNullable<WorkflowUi['positions']>

export function positionsOf(doc: Workflow): Positions | undefined {
  const positions = doc.ui?.positions
  return isObject(positions) ? (positions as Positions) : undefined
}

export function notesOf(doc: Workflow): Note[] {
  const notes = doc.ui?.notes
  return Array.isArray(notes) ? notes.filter((n): n is Note => isObject(n) && typeof n.id === 'string') : []
}

function withUi(doc: Workflow, ui: WorkflowUi): Workflow {
  const { ui: _old, ...rest } = doc
  // An emptied `ui` goes away, so a file the person did not lay out stays free of it.
  return Object.keys(ui).length === 0 ? rest : { ...rest, ui }
}

function sameXY(a: XY | undefined, b: XY): boolean {
  return a !== undefined && a.x === b.x && a.y === b.y
}

/** `doc` with these node positions written (rounded to whole pixels); other entries kept. */
export function setPositions(doc: Workflow, moved: Record<string, XY>): Workflow {
  const before = positionsOf(doc) ?? {}
  let positions: Positions | undefined
  for (const [id, p] of Object.entries(moved)) {
    const xy = { x: Math.round(p.x), y: Math.round(p.y) }
    if (sameXY(before[id], xy)) continue
    positions ??= { ...before }
    positions[id] = xy
  }
  if (!positions) return doc
  return withUi(doc, { ...(doc.ui ?? {}), positions })
}

/** `doc` without the positions of these ids. */
export function removePositions(doc: Workflow, ids: Iterable<string>): Workflow {
  const before = positionsOf(doc)
  if (!before) return doc
  const positions = { ...before }
  let changed = false
  for (const id of ids) {
    if (!Object.hasOwn(positions, id)) continue
    delete positions[id]
    changed = true
  }
  if (!changed) return doc
  const { positions: _p, ...ui } = doc.ui ?? {}
  return withUi(doc, Object.keys(positions).length > 0 ? { ...ui, positions } : ui)
}

/** A note id not used yet: `note_1`, `note_2`, … */
export function newNoteId(doc: Workflow): string {
  const taken = new Set(notesOf(doc).map((n) => n.id))
  for (let n = 1; ; n++) if (!taken.has(`note_${n}`)) return `note_${n}`
}

export function addNote(doc: Workflow, note: Note): Workflow {
  const notes = Array.isArray(doc.ui?.notes) ? doc.ui.notes : []
  return withUi(doc, { ...(doc.ui ?? {}), notes: [...notes, note] })
}

/** `doc` with note `id` changed by `patch` (text, position, size, colour). */
export function updateNote(doc: Workflow, id: string, patch: Partial<Omit<Note, 'id'>>): Workflow {
  const notes = doc.ui?.notes
  if (!Array.isArray(notes)) return doc
  const i = notes.findIndex((n) => isObject(n) && n.id === id)
  if (i < 0) return doc
  const before = notes[i]
  const after = { ...before, ...patch }
  if (Object.keys(patch).every((k) => before[k as keyof Note] === after[k as keyof Note])) return doc
  const next = notes.slice()
  next[i] = after
  return withUi(doc, { ...doc.ui, notes: next })
}

export function deleteNotes(doc: Workflow, ids: ReadonlySet<string>): Workflow {
  const notes = doc.ui?.notes
  if (!Array.isArray(notes)) return doc
  const kept = notes.filter((n) => !(isObject(n) && ids.has(n.id)))
  if (kept.length === notes.length) return doc
  const { notes: _n, ...ui } = doc.ui ?? {}
  return withUi(doc, kept.length > 0 ? { ...ui, notes: kept } : ui)
}
