//! Edits on plain JSON objects and arrays that keep what the person did not touch: key order,
//! unknown keys, value types. A key set to `undefined` is removed, never written as null.
import type { JsonValue } from '../../api/types'

/** `obj` with `key` set to `value` (in place when present, appended when new), or removed. */
export function withKey<T extends object>(obj: T, key: string, value: JsonValue | undefined): T {
  if (value === undefined) {
    if (!Object.hasOwn(obj, key)) return obj
    const copy = { ...obj } as Record<string, unknown>
    delete copy[key]
    return copy as T
  }
  return { ...obj, [key]: value }
}

/** `obj` with `from` renamed to `to` at the same position; undefined when `to` is taken. */
export function renameKey<T extends object>(obj: T, from: string, to: string): T | undefined {
  if (from === to) return obj
  if (Object.hasOwn(obj, to)) return undefined
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k === from ? to : k, v])) as T
}

/** The first of `base_1`, `base_2`, … that `taken` does not hold. */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const used = new Set(taken)
  for (let n = 1; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`
}

export function replaceAt<T>(items: readonly T[], index: number, value: T): T[] {
  return items.map((item, i) => (i === index ? value : item))
}

export function removeAt<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index)
}

/** `items` with the element at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from === to) return [...items]
  const copy = [...items]
  const [moved] = copy.splice(from, 1)
  copy.splice(to, 0, moved)
  return copy
}

export function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Whether a string holds a `{{ … }}` template. */
export function hasTemplate(text: string): boolean {
  return /\{\{[\s\S]*?\}\}/.test(text)
}

/** Equal as JSON text, key order included (a reordering is an edit too). */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}
