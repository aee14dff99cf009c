//! The props every field widget takes, and the attribute that lets `focusField` find its input.
import type { Diagnostic, JsonValue } from '../../api/types'

export interface FieldProps<V extends JsonValue = JsonValue> {
  label: string
  /** The field as diagnostics name it (`inputs.query`, `retry.maxAttempts`, `output.answer`). */
  field: string
  value: V | undefined
  /** `undefined` removes the key. */
  onChange(value: V | undefined): void
  required?: boolean
  description?: string
  /** Shown when empty, e.g. "default: 10". */
  placeholder?: string
  diagnostics: readonly Diagnostic[]
}

/** Marks the element `useFocusField` focuses for `field`. */
export function fieldAttrs(field: string): Record<string, string> {
  return { 'data-field': field }
}
