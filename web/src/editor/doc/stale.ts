//! Which step outputs an edit makes stale: the steps whose definition changed and everything
//! downstream of them, until the next run.
import type { Workflow } from '../../api/types'
import type { Link } from './connect'
import { isStep } from './model'

/** Ids of steps that are new or whose object changed between two documents. */
export function changedSteps(before: Workflow, after: Workflow): string[] {
  if (before.steps === after.steps) return []
  const old = new Map<string, unknown>()
  for (const s of before.steps) if (isStep(s)) old.set(s.id, s)
  return after.steps.filter((s) => isStep(s) && old.get(s.id) !== s).map((s) => s.id)
}

/** `ids` and every node reachable from them along `links`. */
export function downstream(ids: Iterable<string>, links: Link[]): Set<string> {
  const next = new Map<string, string[]>()
  for (const l of links) next.set(l.source, [...(next.get(l.source) ?? []), l.target])
  const out = new Set(ids)
  const queue = [...out]
  for (let i = 0; i < queue.length; i++) {
    for (const n of next.get(queue[i]) ?? []) {
      if (out.has(n)) continue
      out.add(n)
      queue.push(n)
    }
  }
  return out
}
