//! Steps on the clipboard as JSON — `{"steps": [...], "ui": {"positions": {...}}}`, the shape of
//! a workflow fragment — so a copy pastes into another tab, and a whole workflow file pasted on
//! the canvas adds its steps. Pasted ids are made unique; the server's rewrite route then rewires
//! references inside the pasted group (references to steps outside it are kept).
import type { Step, Workflow } from '../../api/types'
import { freeId, idBase, numberedId } from './ids'
import { isObject } from './json'
import { positionsOf } from './layout'
import { isStep, type XY } from './model'

export interface Fragment {
  steps: Step[]
  positions: Record<string, XY>
}

/** The clipboard text for these steps, in document order, with their positions. */
export function copySteps(doc: Workflow, ids: ReadonlySet<string>, positions: Record<string, XY>): string | undefined {
  const steps = doc.steps.filter((s) => isStep(s) && ids.has(s.id))
  if (steps.length === 0) return undefined
  const at: Record<string, XY> = {}
  for (const s of steps) if (positions[s.id]) at[s.id] = { x: Math.round(positions[s.id].x), y: Math.round(positions[s.id].y) }
  return `${JSON.stringify({ steps, ui: { positions: at } }, null, 2)}\n`
}

const NOT_STEPS = 'The clipboard holds no workflow steps: paste JSON copied from the canvas, a list of steps, or a workflow file.'

/** Reads pasted text as steps; an error message says why it is not. */
export function parseFragment(text: string): Fragment | { error: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: NOT_STEPS }
  }
  const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.steps) ? value.steps : undefined
  if (!list || list.length === 0) return { error: NOT_STEPS }
  const bad = list.findIndex((s) => !isObject(s) || typeof s.tool !== 'string')
  if (bad >= 0) return { error: `Step ${bad + 1} of the pasted JSON has no "tool", so it is not a workflow step.` }
  // Missing or repeated ids get a fresh one here: references to them would be ambiguous anyway.
  const seen = new Set<string>()
  const given = new Set((list as Step[]).map((s) => s.id))
  const steps = (list as Step[]).map((s) => {
    const id = typeof s.id === 'string' && !seen.has(s.id) ? s.id : numberedId(idBase(s.tool), new Set([...seen, ...given]))
    seen.add(id)
    return id === s.id ? s : { ...s, id }
  })
  const found = isObject(value) && !Array.isArray(value) ? positionsOf(value as unknown as Workflow) : undefined
  const positions: Record<string, XY> = {}
  for (const s of steps) {
    const p = found?.[s.id]
    if (p && typeof p.x === 'number' && typeof p.y === 'number') positions[s.id] = { x: p.x, y: p.y }
  }
  return { steps, positions }
}

/**
 * New ids for pasted steps: each keeps its id when free, else gets the next `<stem>_<n>`.
 * Returns only the ids that change (what the rewrite route takes), in paste order.
 */
export function pasteIds(pasted: Step[], taken: Iterable<string>): Record<string, string> {
  const used = new Set(taken)
  const incoming = new Set(pasted.map((s) => s.id))
  const renames: Record<string, string> = {}
  for (const step of pasted) {
    // A new id must clash neither with the document nor with another pasted step's id.
    const id = freeId(step.id, new Set([...used, ...[...incoming].filter((i) => i !== step.id)]))
    used.add(id)
    if (id !== step.id) renames[step.id] = id
  }
  return renames
}

/** Where pasted steps go: their copied layout moved so its top-left corner is at `at`. */
export function placeFragment(fragment: Fragment, at: XY): Record<string, XY> {
  const known = Object.values(fragment.positions)
  const left = known.length > 0 ? Math.min(...known.map((p) => p.x)) : at.x
  const top = known.length > 0 ? Math.min(...known.map((p) => p.y)) : at.y
  const out: Record<string, XY> = {}
  fragment.steps.forEach((step, i) => {
    const p = fragment.positions[step.id]
    out[step.id] = p ? { x: p.x - left + at.x, y: p.y - top + at.y } : { x: at.x + 40 * i, y: at.y + 130 * i }
  })
  return out
}
