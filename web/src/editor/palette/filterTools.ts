//! The palette's contents: the catalog's tools grouped by its categories (in the catalog's
//! order), filtered by a search over name, label and description.
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
