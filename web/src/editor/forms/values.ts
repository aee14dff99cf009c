//! Reading what a person typed into a typed value, with the reason when it does not read.
import type { InputType, JsonValue } from '../../api/types'

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

// Keyed by the contract's union, so a type added in Rust fails the type check until listed here.
const INPUT_TYPE_SET = { string: true, number: true, boolean: true, array: true, object: true } satisfies Record<InputType, true>
export const INPUT_TYPES = Object.keys(INPUT_TYPE_SET) as InputType[]

/** Whether `value` is of the declared type (the engine's `InputType::accepts`). */
export function accepts(type: InputType, value: JsonValue): boolean {
  if (type === 'array') return Array.isArray(value)
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value)
  return typeof value === type
}

/** How a free value (a default) is edited. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'json'
export const VALUE_KINDS: readonly ValueKind[] = ['string', 'number', 'boolean', 'json']

export function kindOf(value: JsonValue | undefined): ValueKind {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return typeof value as ValueKind
  return 'json'
}

/** `value` turned into `kind`, keeping what carries over (`"10"` → 10, 10 → `"10"`). */
export function convert(value: JsonValue | undefined, kind: ValueKind): JsonValue {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? value : value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)
    case 'number': {
      const n = Number(value)
      return typeof value !== 'object' && Number.isFinite(n) ? n : 0
    }
    case 'boolean':
      return value === true || value === 'true'
    case 'json':
      if (typeof value === 'object' && value !== null) return value
      if (typeof value === 'string') {
        const parsed = readJson(value).value
        if (typeof parsed === 'object' && parsed !== null) return parsed
      }
      return {}
  }
}
