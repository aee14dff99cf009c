//! Readable unique step ids: `query_1`, `query_2`, … from the tool name, and the same scheme to
//! make pasted ids unique.

import { RESERVED_IDS as RESERVED, STEP_ID_PATTERN } from '../../api/rules'

export const ID_PATTERN = STEP_ID_PATTERN

/** The engine's reserved words: never a step id. */
export const RESERVED_IDS: ReadonlySet<string> = new Set(RESERVED)

/** An identifier made from `name` (`my-tool` → `my_tool`, `1x` → `_1x`). */
export function idBase(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_')
  if (cleaned === '') return 'step'
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}

/** `<base>_<n>` with the smallest n ≥ 1 that is not taken. */
export function numberedId(base: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const id = `${base}_${n}`
    if (!taken.has(id)) return id
  }
}

/** The id itself when it is free (and valid), else the next free `<stem>_<n>` (`query_1` → `query_2`). */
export function freeId(id: string, taken: ReadonlySet<string>): string {
  if (ID_PATTERN.test(id) && !RESERVED_IDS.has(id) && !taken.has(id)) return id
  const stem = idBase(id).replace(/_\d+$/, '')
  return numberedId(stem === '' ? 'step' : stem, taken)
}
