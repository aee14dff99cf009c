import type { ConfigStatus } from '../api/types'

const SHORT: Record<string, string> = { embeddings: 'embeddings', rerank: 'rerank', store: 'store', llm: 'LLM' }

/** One line for the status chip, e.g. "Offline: local embeddings · local store · no LLM". */
export function configSummary(config: ConfigStatus): string {
  const parts = config.providers.map((p) => {
    const what = SHORT[p.id] ?? p.label
    return p.backend === 'none' ? `no ${what}` : `${p.backend} ${what}`
  })
  return `${config.offline ? 'Offline' : 'Online'}: ${parts.join(' · ')}`
}
