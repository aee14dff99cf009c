//! Reading what a person typed into a typed value, with the reason when it does not read.
import type { JsonValue } from '../../api/types'

/** Why `text` is not an acceptable value, or the number it is (undefined: cleared). */
export function readNumber(text: string, p: { integer?: boolean; minimum?: number; maximum?: number }): { value?: number; error?: string } {
  if (text.trim() === '') return {}
  const n = Number(text)
  if (!Number.isFinite(n)) return { error: 'Must be a number' }
  if (p.integer && !Number.isInteger(n)) return { error: 'Must be a whole number' }
  if (p.minimum !== undefined && n < p.minimum) return { error: `Must be at least ${p.minimum}` }
  if (p.maximum !== undefined && n > p.maximum) return { error: `Must be at most ${p.maximum}` }
  return { value: n }
}

/** Pretty JSON text of a value; empty for no value. */
export function showJson(value: JsonValue | undefined): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2)
}

/** The value JSON text holds (none when blank), or why it is refused. */
export function readJson(text: string, check?: (value: JsonValue) => string | undefined): { value?: JsonValue; error?: string } {
  if (text.trim() === '') return {}
  try {
    const value = JSON.parse(text) as JsonValue
    const error = check?.(value)
    return error ? { error } : { value }
  } catch (e) {
    return { error: `Invalid JSON: ${e instanceof Error ? e.message : String(e)}` }
  }
}
