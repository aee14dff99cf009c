//! Display formatting for the canvas.
import type { Cost, Usage } from '../api/types'

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

/** Dollars to a precision that shows a single call: "$0.0021", "$1.23", "<$0.0001", "$0". */
export function formatDollars(usd: number): string {
  if (usd === 0) return '$0'
  if (usd < 0.0001) return '<$0.0001'
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`
}

/** A cost, with the models that have no price — never shown as free: "$? (gpt-9 unpriced)". */
export function formatCost(cost: Cost): string {
  const unpriced = cost.unpriced?.length ? ` (${cost.unpriced.join(', ')} unpriced)` : ''
  if (cost.usd === null) return `$?${unpriced}`
  return unpriced ? `${formatDollars(cost.usd)} + ?${unpriced}` : formatDollars(cost.usd)
}

/** Tokens and cost as the CLI's progress lines show them: "12 tok · 812→96 tok · $0.0021". */
export function formatUsage(usage: Usage): string {
  const parts: string[] = []
  const read = (usage.embedTokens ?? 0) + (usage.rerankTokens ?? 0)
  if (read > 0) parts.push(`${read} tok`)
  const input = usage.llmInputTokens ?? 0
  const output = usage.llmOutputTokens ?? 0
  if (input + output > 0) parts.push(`${input}→${output} tok`)
  if (usage.cost) parts.push(formatCost(usage.cost))
  return parts.join(' · ')
}
