//! Unsaved edits kept in localStorage, one draft per workflow key, so a reload, a closed tab or a
//! crash loses nothing: opening that workflow again restores the draft (with an offer to
//! discard it). Small and dependency-free: the main bundle checks for drafts before the editor
//! is loaded.
import type { Workflow } from '../api/types'

const PREFIX = 'vai.draft.v1:'
/** Key prefix of workflows created in the builder and never saved. */
export const NEW_PREFIX = 'new:'

export interface Draft {
  key: string
  label: string
  /** Library id the draft started from (absent for new or imported workflows). */
  id?: string
  readOnly: boolean
  /** File version the edits are based on (for the save conflict check). */
  version?: string
  /** JSON of the document as last saved or opened: what "unsaved" is measured against. */
  savedJson: string
  doc: Workflow
  savedAt: number
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export function loadDraft(key: string, store = storage()): Draft | undefined {
  try {
    const raw = store?.getItem(PREFIX + key)
    if (!raw) return undefined
    const draft = JSON.parse(raw) as Draft
    return draft && typeof draft === 'object' && draft.key === key && draft.doc && Array.isArray(draft.doc.steps) ? draft : undefined
  } catch {
    return undefined
  }
}

export function hasDraft(key: string, store = storage()): boolean {
  return loadDraft(key, store) !== undefined
}

/** Writes the draft; false when storage is full or disabled (the caller says so). */
export function saveDraft(draft: Draft, store = storage()): boolean {
  try {
    store?.setItem(PREFIX + draft.key, JSON.stringify(draft))
    return store !== undefined
  } catch {
    return false
  }
}

export function removeDraft(key: string, store = storage()): void {
  try {
    store?.removeItem(PREFIX + key)
  } catch {
    // Nothing to do: a draft that cannot be removed is offered again, and can be discarded then.
  }
}

/** A key for a workflow made in the builder: `new:<random>`. */
export function newKey(): string {
  return NEW_PREFIX + Math.random().toString(36).slice(2, 10)
}
