//! Library search: every word of the query must appear in the name, id or description.
import type { WorkflowSummary } from '../api/types'

export function matches(query: string, ...fields: (string | undefined)[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const haystack = fields.filter(Boolean).join(' ').toLowerCase()
  return words.every((w) => haystack.includes(w))
}

export function filterWorkflows(list: WorkflowSummary[], query: string): WorkflowSummary[] {
  return list.filter((w) => matches(query, w.name, w.id, w.description))
}

export const SECTIONS: { source: WorkflowSummary['source']; title: string }[] = [
  { source: 'builtin', title: 'Built-in' },
  { source: 'example', title: 'Examples' },
  { source: 'file', title: 'In this folder' },
]
