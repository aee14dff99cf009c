//! How tokens and cost read, wherever they are shown (step nodes, the run bar, the inspector, chat
//! turns): one place, so `$0.0021` on a node and in the run bar's totals are the same text. A
//! model with no known price is never shown as free: its cost is `—`, with the reason.
import type { Cost, Usage } from '../api/types'

/** A cost for people: the text and, when there is more to say, a tooltip. */
export interface CostText {
  text: string
  title?: string
}

/** Below this, a cost is written as "less than" (significant digits of tiny amounts say nothing). */
const SMALLEST_USD = 0.0001

/** `$1.23`, `$0.50`, `$0.0021`, `<$0.0001`, `$0`. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0'
  if (usd < SMALLEST_USD) return `<$${SMALLEST_USD}`
  if (usd >= 1) return `$${usd.toFixed(2)}`
  // Two significant digits: $0.50, $0.012, $0.0021.
  return `$${usd.toPrecision(2)}`
}

/**
 * How much more (`+$0.0012`) or less (`−$0.0003`) B cost than A, for a comparison of two runs;
 * undefined when either cost is unknown (an unknown is never a saving).
 */
export function formatUsdDelta(a: number | undefined | null, b: number | undefined | null): string | undefined {
  if (a === undefined || a === null || b === undefined || b === null) return undefined
  const delta = b - a
  // Sums of prices carry float noise: a difference far below the smallest shown amount is none.
  if (Math.abs(delta) < 1e-9) return '±$0'
  return `${delta > 0 ? '+' : '−'}${formatUsd(Math.abs(delta))}`
}

function unpricedText(cost: Cost): string | undefined {
  const models = cost.unpriced ?? []
  return models.length > 0 ? `No known price for ${models.join(', ')}` : undefined
}

/**
 * What a cost reads as: `—` when nothing was priced (the reason as the tooltip), `≥$0.0021` when
 * some models were left out (it cost at least that), else the amount, with the rates and the
 * date of the prices as the tooltip. Undefined when there is no cost to show.
 */
export function costText(cost: Cost | undefined): CostText | undefined {
  if (!cost) return undefined
  const why = cost.reason ?? unpricedText(cost)
  if (cost.usd === null) return { text: '—', title: why ?? 'No known price' }
  const rates = [
    cost.inputPerMTok !== undefined ? `${formatUsd(cost.inputPerMTok)}/M in` : undefined,
    cost.outputPerMTok !== undefined ? `${formatUsd(cost.outputPerMTok)}/M out` : undefined,
  ].filter(Boolean)
  const priced = `priced ${cost.pricedAt}${rates.length > 0 ? ` at ${rates.join(', ')}` : ''}`
  const partial = (cost.unpriced?.length ?? 0) > 0
  return {
    // "At least less than a hundredth of a cent" says nothing: an unknown part is just unknown.
    text: partial ? (cost.usd < SMALLEST_USD ? '$?' : `≥${formatUsd(cost.usd)}`) : formatUsd(cost.usd),
    title: partial ? `${why ?? 'Partly priced'}; ${priced}` : priced,
  }
}

/** `999`, `1.2k`, `12k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n)
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}

/** One labelled count of a usage, as the run bar and chat show them. */
export interface UsagePart {
  label: string
  text: string
  title?: string
}

/**
 * The counts a usage holds, in a fixed order, leaving out what is absent or zero: LLM tokens in
 * and out, embedding and rerank tokens, then the cost.
 */
export function usageParts(usage: Usage | undefined): UsagePart[] {
  if (!usage) return []
  const counts: [string, number | undefined, string][] = [
    ['in', usage.llmInputTokens, 'LLM input tokens'],
    ['out', usage.llmOutputTokens, 'LLM output tokens'],
    ['embed', usage.embedTokens, 'Embedding tokens'],
    ['rerank', usage.rerankTokens, 'Rerank tokens'],
  ]
  const parts: UsagePart[] = counts
    .filter((c): c is [string, number, string] => c[1] !== undefined && c[1] > 0)
    .map(([label, n, title]) => ({ label, text: formatTokens(n), title: `${title}: ${n.toLocaleString('en-US')}` }))
  const cost = costText(usage.cost)
  if (cost) parts.push({ label: 'cost', text: cost.text, title: cost.title })
  return parts
}

/** A usage on one line: `in 1.2k · out 340 · embed 5.1k · $0.0021`. */
export function usageLine(usage: Usage | undefined): string {
  return usageParts(usage)
    .map((p) => (p.label === 'cost' ? p.text : `${p.label} ${p.text}`))
    .join(' · ')
}
