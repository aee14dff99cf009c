//! Small helpers over JSON values that keep structure shared: an unchanged subtree keeps its
//! object identity, so selectors and memoised nodes see only what really changed.
import type { JsonValue } from '../../api/types'

export type JsonObject = { [key: string]: JsonValue }

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Structural equality of two JSON values (key order ignored, as JSON objects are maps). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    return a.every((x, i) => jsonEqual(x, b[i]))
  }
  if (isObject(a)) {
    if (!isObject(b)) return false
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    return keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
  }
  return false
}

/**
 * `next` with every subtree equal to the corresponding one in `prev` replaced by `prev`'s
 * object, so a whole document coming back from the server (a rename) changes identity only
 * where its content changed. Key order of `next` wins: a changed order is a real change.
 */
export function shareStructure<T>(prev: unknown, next: T): T {
  if (prev === next) return next
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next
    const out = next.map((item, i) => shareStructure(prev[i], item))
    return (out.length === prev.length && out.every((item, i) => item === prev[i]) ? prev : out) as T
  }
  if (isObject(next)) {
    if (!isObject(prev)) return next
    const out: JsonObject = {}
    let same = Object.keys(prev).length === Object.keys(next).length
    const prevKeys = Object.keys(prev)
    Object.keys(next).forEach((key, i) => {
      out[key] = shareStructure(prev[key], next[key])
      if (out[key] !== prev[key] || prevKeys[i] !== key) same = false
    })
    return (same ? prev : out) as T
  }
  return (prev === next ? prev : next) as T
}
