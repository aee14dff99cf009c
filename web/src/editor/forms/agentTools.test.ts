import { describe, expect, it } from 'vitest'
import type { ToolView } from '../../api/types'
import { toolView } from '../../test/toolView'
import { agentToolChoices, choiceOf } from './agentTools'

const catalog: Record<string, ToolView> = Object.fromEntries(
  [
    toolView('query', { category: 'retrieval' }),
    toolView('agent', { category: 'generation' }),
    toolView('conditional', { category: 'control_flow' }),
    toolView('loop', { category: 'control_flow' }),
    toolView('generate', { category: 'generation' }),
    toolView('search', { category: 'retrieval' }),
  ].map((t) => [t.name, t]),
)
const workflows = [
  { value: 'rag-chat', label: 'RAG chat (rag-chat)', inputs: ['question'] },
  { value: 'search', label: 'A workflow named like a tool', inputs: [] },
]

describe('agentToolChoices', () => {
  it('offers every tool outside control flow but the agent, then the workflows', () => {
    const choices = agentToolChoices(catalog, workflows)
    expect(choices.map((c) => `${c.group}:${c.value}`)).toEqual(['vai tools:generate', 'vai tools:query', 'vai tools:search', 'Workflows:rag-chat'])
    expect(choices.at(-1)?.label).toBe('RAG chat (rag-chat)')
  })

  it('keeps a name that is neither, as unknown', () => {
    const choices = agentToolChoices(catalog, workflows)
    expect(choiceOf('query', choices).group).toBe('vai tools')
    expect(choiceOf('conditional', choices)).toMatchObject({ value: 'conditional', group: 'Unknown' })
  })
})
