//! What an output holds that reads as an evaluator's scores (ScoresView draws them).

/** Said when the small offline model scored and the output carries no notice of its own. */
export const LOCAL_SMALL_NOTICE =
  'Scored by the small offline model: the scores are valid numbers in range, but not reliable judgements. Configure an LLM for scores you can use.'

export type Scores = { scores: [string, number][]; reasoning?: string; notice?: string }

/** The scores of an output shaped as an evaluator's (`scores`: names to numbers), else undefined. */
export function scoresOf(value: unknown): Scores | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const out = value as Record<string, unknown>
  const scores = out.scores
  if (!scores || typeof scores !== 'object' || Array.isArray(scores)) return undefined
  const entries = Object.entries(scores as Record<string, unknown>)
  if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'number')) return undefined
  return {
    scores: entries as [string, number][],
    reasoning: typeof out.reasoning === 'string' && out.reasoning.trim() ? out.reasoning : undefined,
    notice: out.judge === 'local-small' ? (typeof out.notice === 'string' && out.notice ? out.notice : LOCAL_SMALL_NOTICE) : undefined,
  }
}
