//! The passages a grounded answer quotes, as the Chat panel lists them: each with the number and
//! title of its source, in the order the answer quotes them; and which one a citation means.
import type { ChatSource } from '../api/types'

export interface Passage {
  /** Unique in its turn: `n:place`. */
  key: string
  /** The source's citation number. */
  n: number
  /** Its place among its source's passages (from 0). */
  place: number
  title: string
  text: string
}

/** Every source's passages, in the order they come in `answer` (those not found in it last). */
export function passagesOf(sources: ChatSource[], answer: string): Passage[] {
  const all = sources.flatMap((s) => (s.passages ?? []).map((text, place) => ({ key: `${s.index}:${place}`, n: s.index, place, title: s.title, text })))
  const at = new Map(all.map((p) => [p.key, answer.indexOf(p.text)]))
  const where = (p: Passage) => {
    const found = at.get(p.key) ?? -1
    return found < 0 ? Number.MAX_SAFE_INTEGER : found
  }
  return all
    .map((p, i) => ({ p, i }))
    .sort((a, b) => where(a.p) - where(b.p) || a.i - b.i)
    .map(({ p }) => p)
}

/**
 * The passage the `nth` citation (from 0) of source `n` follows: an extractive answer quotes
 * a source's passages in their order, each followed by its `[n]`. Its last passage for a later
 * citation; none when the source has no passages.
 */
export function passageFor(passages: Passage[], n: number, nth: number): Passage | undefined {
  const own = passages.filter((p) => p.n === n).sort((a, b) => a.place - b.place)
  return own[Math.min(nth, own.length - 1)]
}
