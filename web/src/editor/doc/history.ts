//! Undo and redo over whole documents. Documents share structure, so a history entry costs only
//! what its edit changed. Successive edits of one field (keystrokes) coalesce into one entry.

import type { Workflow } from '../../api/types'

export const HISTORY_LIMIT = 200

export interface History {
  past: Workflow[]
  future: Workflow[]
  /** The coalescing key of the last recorded edit; the next edit with the same key joins it. */
  key?: string
}

export const emptyHistory: History = { past: [], future: [] }

/** Records that `before` was replaced by an edit; `key` (e.g. `step:search:inputs.query`) coalesces. */
export function record(history: History, before: Workflow, key?: string): History {
  if (key !== undefined && key === history.key && history.past.length > 0) return { ...history, future: [] }
  const past = history.past.length >= HISTORY_LIMIT ? history.past.slice(1) : history.past.slice()
  past.push(before)
  return { past, future: [], key }
}

/** Ends coalescing: the next edit of the same field is a new entry. */
export function seal(history: History): History {
  return history.key === undefined ? history : { ...history, key: undefined }
}

export function undo(history: History, current: Workflow): { history: History; doc: Workflow } | undefined {
  const doc = history.past.at(-1)
  if (!doc) return undefined
  return { doc, history: { past: history.past.slice(0, -1), future: [...history.future, current] } }
}

export function redo(history: History, current: Workflow): { history: History; doc: Workflow } | undefined {
  const doc = history.future.at(-1)
  if (!doc) return undefined
  return { doc, history: { past: [...history.past, current], future: history.future.slice(0, -1) } }
}
