//! Where completion applies in a field's text, and the text after accepting an item.
import type { Completion } from '../../api/types'

/** Whether `cursor` sits inside an open `{{ … }}` of `text`. */
export function insideTemplate(text: string, cursor: number): boolean {
  const before = text.slice(0, cursor)
  const open = before.lastIndexOf('{{')
  return open >= 0 && before.indexOf('}}', open + 2) < 0
}

/** `text` with `[from, to)` replaced by the item's insert, and the cursor after it. */
export function applyCompletion(text: string, range: { from: number; to: number }, item: Completion): { text: string; cursor: number } {
  return { text: text.slice(0, range.from) + item.insert + text.slice(range.to), cursor: range.from + item.insert.length }
}
