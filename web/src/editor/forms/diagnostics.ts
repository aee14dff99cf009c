//! Placing diagnostics under the fields they name: each goes to the most specific field a form
//! shows (`inputs.arrays[1]` under the second item, else under `inputs.arrays`).
import type { Diagnostic } from '../../api/types'

/** Whether `field` is `prefix` or a part of it (`prefix.x`, `prefix[0]`). */
export function isUnder(field: string | undefined, prefix: string): boolean {
  if (field === undefined) return false
  if (field === prefix) return true
  return field.startsWith(prefix) && (field[prefix.length] === '.' || field[prefix.length] === '[')
}

export interface Placed {
  /** Diagnostics by the shown field that takes them. */
  at(field: string): Diagnostic[]
  /** Diagnostics no shown field takes (no field, or a field the form does not show). */
  rest: Diagnostic[]
}

export function placeDiagnostics(diagnostics: readonly Diagnostic[], fields: readonly string[]): Placed {
  const byField = new Map<string, Diagnostic[]>()
  const rest: Diagnostic[] = []
  for (const d of diagnostics) {
    let best: string | undefined
    for (const f of fields) if (isUnder(d.field, f) && (best === undefined || f.length > best.length)) best = f
    if (best === undefined) rest.push(d)
    else byField.set(best, [...(byField.get(best) ?? []), d])
  }
  return { at: (field) => byField.get(field) ?? [], rest }
}

export function hasError(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error')
}
