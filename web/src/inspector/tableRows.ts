//! Whether a value reads well as a table: an array of objects, directly or as the one array
//! field of an object (e.g. `{results: [...], resultCount}`).
import { isRecord } from '../state/definition'

export interface TableData {
  /** Path of the array inside the value (`''` for the value itself, else a key like `results`). */
  path: string
  columns: string[]
  rows: Record<string, unknown>[]
}

const MAX_COLUMNS = 24

export function asTable(value: unknown): TableData | undefined {
  const direct = rowsOf(value, '')
  if (direct) return direct
  if (!isRecord(value)) return undefined
  const candidates = Object.entries(value).filter(([, v]) => rowsOf(v, '') !== undefined)
  if (candidates.length !== 1) return undefined
  const [key, array] = candidates[0]
  return rowsOf(array, key)
}

function rowsOf(value: unknown, path: string): TableData | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined
  if (!value.every(isRecord)) return undefined
  const columns: string[] = []
  for (const row of value) {
    for (const key of Object.keys(row)) {
      if (!columns.includes(key)) columns.push(key)
    }
  }
  if (columns.length === 0) return undefined
  return { path, columns: columns.slice(0, MAX_COLUMNS), rows: value }
}

/** A one-line rendering of a cell. */
export function cellText(value: unknown, max = 200): string {
  if (value === undefined) return ''
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
