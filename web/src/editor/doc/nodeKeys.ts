//! Which canvas node draws which step while editing. A step's key is its id when it first appears
//! and stays with the step through a rename (and the undo of one), so a rename updates the node
//! and its edges in place: with the id as React Flow's node id, a rename would unmount the node
//! and its edges, mount new ones and measure them again. Keys live in the editor's state only;
//! the document never holds them.
import type { Workflow } from '../../api/types'
import { isStep } from './model'

/** Step id → React Flow node id. Steps not listed (and other nodes) use their own id. */
export type NodeKeys = Readonly<Record<string, string>>

/** Every step keyed by its own id. */
export function initialKeys(doc: Workflow): NodeKeys {
  const keys: Record<string, string> = {}
  for (const step of doc.steps) if (isStep(step)) keys[step.id] = step.id
  return keys
}

/** The node id drawing `id` (a step, a note, the inputs or the output node). */
export function keyOf(keys: NodeKeys, id: string): string {
  return Object.hasOwn(keys, id) ? keys[id] : id
}

/** The step (or other node) drawn by node `key`. */
export function idOfKey(keys: NodeKeys, key: string): string {
  if (Object.hasOwn(keys, key) && keys[key] === key) return key
  for (const id in keys) if (keys[id] === key) return id
  return key
}

/**
 * The keys of `next`'s steps, following `keys` (those of `prev`): a step keeps its key; a step
 * that took the place of one that is gone — renamed by `renames`, or else found at the same
 * position, as when a rename is undone — takes over that step's key; any other step is keyed
 * by its id, made unique against the keys in use. The same object comes back when nothing moved.
 */
export function followKeys(keys: NodeKeys, prev: Workflow, next: Workflow, renames: Record<string, string> = {}): NodeKeys {
  if (prev.steps === next.steps) return keys
  const out: Record<string, string> = {}
  const used = new Set<string>()
  const present = new Set<string>()
  const pending: { id: string; at: number }[] = []
  next.steps.forEach((step, at) => {
    if (!isStep(step) || present.has(step.id)) return
    present.add(step.id)
    if (Object.hasOwn(keys, step.id)) {
      out[step.id] = keys[step.id]
      used.add(keys[step.id])
    } else pending.push({ id: step.id, at })
  })
  if (pending.length > 0) {
    const renamedFrom = new Map(Object.entries(renames).map(([from, to]) => [to, from]))
    // A step's key is free to take over when the step is gone and nobody took its key yet.
    const free = (from: string | undefined): from is string => from !== undefined && !present.has(from) && Object.hasOwn(keys, from) && !used.has(keys[from])
    const fresh: string[] = []
    for (const { id, at } of pending) {
      const before = prev.steps[at]
      const from = [renamedFrom.get(id), isStep(before) ? before.id : undefined].find(free)
      if (from === undefined) fresh.push(id)
      else {
        out[id] = keys[from]
        used.add(keys[from])
      }
    }
    for (const id of fresh) {
      let key = id
      for (let n = 2; used.has(key); n++) key = `${id}~${n}`
      out[id] = key
      used.add(key)
    }
  }
  return sameKeys(out, keys) ? keys : out
}

function sameKeys(a: NodeKeys, b: NodeKeys): boolean {
  const ka = Object.keys(a)
  return ka.length === Object.keys(b).length && ka.every((id) => Object.hasOwn(b, id) && b[id] === a[id])
}
