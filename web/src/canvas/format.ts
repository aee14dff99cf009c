//! Display formatting for the canvas.
/** "123 ms", "1.23 s", "12.3 s", "2 m 05 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  return `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, '0')} s`
}

/** How much of a running step's text its node keeps: its detail line shows the end of it. */
export const TAIL_CHARS = 120

/** The last `TAIL_CHARS` characters of `text`, on one line, `…` first when cut. */
export function textTail(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= TAIL_CHARS) return flat
  // Not half a surrogate pair at the cut.
  const tail = flat.slice(-TAIL_CHARS).replace(/^[\uDC00-\uDFFF]/, '')
  return `…${tail.trimStart()}`
}
