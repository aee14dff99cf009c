//! Recently opened workflows, remembered in localStorage. Library workflows are kept by id;
//! pasted and dropped ones keep their text so they can be reopened (and reloaded) later.

export interface RecentEntry {
  /** What goes in `?workflow=`: a library id, or `recent:<hash>` for pasted/dropped text. */
  key: string
  name: string
  /** Only for pasted/dropped workflows. */
  text?: string
  openedAt: number
}

const STORAGE_KEY = 'vai.recent.v1'
export const MAX_RECENTS = 8
/** Bigger texts are opened but not remembered (localStorage holds ~5 MB per origin). */
export const MAX_REMEMBERED_TEXT = 512 * 1024

export const RECENT_PREFIX = 'recent:'

/** A short stable key for a workflow text (FNV-1a, base 36). */
export function textKey(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return RECENT_PREFIX + (hash >>> 0).toString(36)
}

/**
 * Puts `entry` first, dropping an older entry with the same key — or with the key `replaces`, the
 * pasted text it was saved from, which is now the same workflow — and trimming to the limit.
 */
export function withRecent(list: RecentEntry[], entry: RecentEntry, replaces?: string): RecentEntry[] {
  if (entry.text !== undefined && entry.text.length > MAX_REMEMBERED_TEXT) return list
  return [entry, ...list.filter((e) => e.key !== entry.key && e.key !== replaces)].slice(0, MAX_RECENTS)
}

export function loadRecents(storage: Storage | undefined = globalThis.localStorage): RecentEntry[] {
  try {
    const raw = storage?.getItem(STORAGE_KEY)
    const parsed: unknown = raw ? JSON.parse(raw) : []
    if (!Array.isArray(parsed)) return []
    return parsed.filter((e): e is RecentEntry => typeof e === 'object' && e !== null && typeof e.key === 'string' && typeof e.name === 'string')
  } catch {
    return []
  }
}

export function saveRecents(list: RecentEntry[], storage: Storage | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(list))
  } catch {
    // Quota exceeded or storage disabled: recents are a convenience, not state.
  }
}
