//! Renames (steps and inputs) and paste rewiring come back from the server's rewrite route as a
//! whole document; applying one keeps every untouched part's identity.
import type { JsonValue, Step, Workflow } from '../../api/types'
import { isObject, shareStructure } from './json'

/** The rewritten document, sharing structure with `prev`; undefined when it is not a workflow. */
export function applyRewrite(prev: Workflow, definition: JsonValue): Workflow | undefined {
  if (!isObject(definition) || !Array.isArray(definition.steps)) return undefined
  return shareStructure(prev, definition as unknown as Workflow)
}

/** The rewired steps of a pasted fragment (`{name, steps}` sent to the rewrite route). */
export function rewrittenSteps(definition: JsonValue): Step[] | undefined {
  if (!isObject(definition) || !Array.isArray(definition.steps)) return undefined
  return definition.steps as unknown as Step[]
}

/** A record with its keys renamed (`{a: 1}` with `{a: 'b'}` → `{b: 1}`), keeping the old keys too when `keep`. */
export function renameKeys<T>(record: Record<string, T>, renames: Record<string, string>, keep = false): Record<string, T> {
  const entries = Object.entries(renames).filter(([from]) => Object.hasOwn(record, from))
  if (entries.length === 0) return record
  const out = { ...record }
  for (const [from, to] of entries) {
    out[to] = record[from]
    if (!keep) delete out[from]
  }
  return out
}
