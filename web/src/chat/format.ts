//! How the Chat panel writes numbers (relevance scores, durations) and how an answer was made.
import type { AnswerMethod } from '../api/types'

/** A relevance score with two decimals (scores are 0–1, or a few units for some rerankers). */
export function relevance(score: number): string {
  return score.toFixed(2)
}

/** A duration for people: `850 ms`, `3.2 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} min ${s % 60} s`
}

/** What the label beside an answer says about how it was made; a generated answer has none. */
export const METHOD_LABEL: Partial<Record<AnswerMethod, string>> = {
  extractive: 'Quoted from the sources',
  declined: 'Not in the sources',
}
