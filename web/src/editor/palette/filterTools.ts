//! The palette's contents: the catalog's tools grouped by its categories (in the catalog's
//! order), filtered by a search over name, label and description, and the one Enter adds.
import type { CategoryView, ToolView } from '../../api/types'

export interface ToolGroup {
  category: CategoryView
  tools: ToolView[]
}

export function groupTools(tools: ToolView[], categories: CategoryView[], query: string): ToolGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const match = (t: ToolView) => {
    const text = `${t.name} ${t.label} ${t.description}`.toLowerCase()
    return words.every((w) => text.includes(w))
  }
  const known = new Set(categories.map((c) => c.id))
  const groups = categories.map((category) => ({ category, tools: tools.filter((t) => t.category === category.id && match(t)) }))
  const rest = tools.filter((t) => !known.has(t.category) && match(t))
  if (rest.length > 0) groups.push({ category: { id: 'utility', label: 'Other', color: '#9E9E9E' }, tools: rest })
  return groups.filter((g) => g.tools.length > 0)
}

/**
 * The tool Enter adds for `query`: a name or label that is the query wins over one that starts
 * with it, which wins over a mere mention in a description ("rerank" is Rerank, not the Query
 * tool whose description says it reranks). Ties keep the palette's order.
 */
export function bestMatch(groups: ToolGroup[], query: string): ToolView | undefined {
  const q = query.trim().toLowerCase()
  const score = (t: ToolView) => {
    const names = [t.name.toLowerCase(), t.label.toLowerCase()]
    if (names.includes(q)) return 3
    if (names.some((n) => n.startsWith(q))) return 2
    if (names.some((n) => n.includes(q))) return 1
    return 0
  }
  let best: ToolView | undefined
  let bestScore = -1
  for (const t of groups.flatMap((g) => g.tools)) {
    const s = score(t)
    if (s > bestScore) [best, bestScore] = [t, s]
  }
  return best
}
