//! Bringing a node just added from the side palette into view: the viewport pans to it only when
//! it landed outside what is shown (a click or Enter adds beside the selection or below
//! everything), so adding a step never leaves it hidden and never moves a view that shows it.
import { flowRect } from './useEditorKeys'

const FRAMES = 10

/** The drawn node of key `key`; compared as data, so a key needs no escaping into a selector. */
function nodeElement(key: string): HTMLElement | null {
  const nodes = document.querySelectorAll<HTMLElement>('main[aria-label="Canvas"] .react-flow__node')
  return Array.from(nodes).find((el) => el.dataset.id === key) ?? null
}

/**
 * Pans to step `id` (drawn as node `key`) once it is drawn, if any of it is outside the flow
 * pane; `centre` is the canvas store's.
 */
export function revealNode(centre: (id: string) => void, id: string, key = id, frames = FRAMES): void {
  const el = nodeElement(key)
  const pane = flowRect()
  if (!el || !pane) {
    if (frames > 0) requestAnimationFrame(() => revealNode(centre, id, key, frames - 1))
    return
  }
  const r = el.getBoundingClientRect()
  const inside = r.left >= pane.left && r.right <= pane.right && r.top >= pane.top && r.bottom <= pane.bottom
  if (!inside) centre(id)
}
