//! Focusing the input of a field named by a diagnostic (the problems list drives it).
import { useEffect, type RefObject } from 'react'
import { isUnder } from './diagnostics'

/**
 * The element for `field` under `root`: the field itself, else its first part shown
 * (`retry` → `retry.maxAttempts`), else the nearest enclosing field shown
 * (`inputs.filter.source` → `inputs.filter`).
 */
export function findField(root: ParentNode, field: string): HTMLElement | undefined {
  const all = [...root.querySelectorAll<HTMLElement>('[data-field]')]
  const named = (f: string) => all.find((el) => el.dataset.field === f)
  const found = named(field) ?? all.find((el) => isUnder(el.dataset.field, field))
  if (found) return found
  for (let f = field; ;) {
    const cut = Math.max(f.lastIndexOf('.'), f.lastIndexOf('['))
    if (cut <= 0) return undefined
    f = f.slice(0, cut)
    const el = named(f)
    if (el) return el
  }
}

/** When `field` changes, focuses its input and scrolls it into view. */
export function useFocusField(root: RefObject<HTMLElement | null>, field: string | undefined): void {
  useEffect(() => {
    if (!field || !root.current) return
    const el = findField(root.current, field)
    if (!el) return
    el.focus()
    el.scrollIntoView?.({ block: 'center', behavior: 'smooth' })
  }, [root, field])
}
