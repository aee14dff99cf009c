//! A tool as the catalog describes it, for tests: a plain one, changed by `extra`.
import type { ToolView } from '../api/types'

export function toolView(name: string, extra: Partial<ToolView> = {}): ToolView {
  return {
    name,
    label: name[0].toUpperCase() + name.slice(1),
    category: 'control_flow',
    color: '#90A4AE',
    icon: 'Build',
    description: `The ${name} tool`,
    help: '',
    inputSchema: { type: 'object', properties: {}, required: [] },
    outputs: [],
    apiCalls: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 },
    ...extra,
  }
}
