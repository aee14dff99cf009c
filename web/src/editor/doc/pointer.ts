//! RFC 6901 JSON pointers (what the server's reference index uses to locate each reference),
//! with copy-on-write updates: only the objects on the path to the change are copied.
import type { JsonValue } from '../../api/types'
import { isObject } from './json'

/** Returned by an update function to delete the value: the object key or the array element. */
export const REMOVE = Symbol('remove')

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`)
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

export function formatPointer(segments: (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('')
}

export function getAt(root: unknown, segments: string[]): unknown {
  let value = root
  for (const segment of segments) {
    if (Array.isArray(value)) value = value[Number(segment)]
    else if (isObject(value)) value = Object.hasOwn(value, segment) ? value[segment] : undefined
    else return undefined
  }
  return value
}

type Update = (value: unknown) => unknown

/**
 * `root` with the value at `segments` replaced by `update(value)` (or deleted when it returns
 * REMOVE). Containers on the path are copied; everything else is shared. A path that does not
 * exist leaves `root` unchanged.
 */
export function updateAt<T>(root: T, segments: string[], update: Update): T {
  if (segments.length === 0) return update(root) as T
  const [head, ...rest] = segments
  if (Array.isArray(root)) {
    const i = Number(head)
    if (!Number.isInteger(i) || i < 0 || i >= root.length) return root
    const next = rest.length === 0 ? update(root[i]) : updateAt(root[i], rest, update)
    if (next === root[i]) return root
    const copy = root.slice()
    if (next === REMOVE) copy.splice(i, 1)
    else copy[i] = next as JsonValue
    return copy as T
  }
  if (isObject(root)) {
    if (!Object.hasOwn(root, head)) return root
    const next = rest.length === 0 ? update(root[head]) : updateAt(root[head], rest, update)
    if (next === root[head]) return root
    if (next === REMOVE) {
      const { [head]: _removed, ...kept } = root
      return kept as T
    }
    return { ...root, [head]: next as JsonValue } as T
  }
  return root
}

/** Compares pointers so that, within one array, higher indices come first (safe removal order). */
export function comparePointersDescending(a: string, b: string): number {
  const x = parsePointer(a)
  const y = parsePointer(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue
    const m = Number(x[i])
    const n = Number(y[i])
    if (Number.isInteger(m) && Number.isInteger(n)) return n - m
    return x[i] < y[i] ? 1 : -1
  }
  return y.length - x.length
}
