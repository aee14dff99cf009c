import { describe, expect, it } from 'vitest'
import type { WorkflowSummary } from '../api/types'
import { filterWorkflows, matches } from './filterWorkflows'

const w = (id: string, name: string, description?: string): WorkflowSummary => ({
  id,
  name,
  description,
  source: 'builtin',
  readOnly: true,
  stepCount: 1,
  inputs: [],
})

describe('filterWorkflows', () => {
  const list = [w('builtin:a', 'Multi-Collection Search', 'Query two collections'), w('builtin:b', 'Search with Fallback')]

  it('keeps everything for an empty query', () => {
    expect(filterWorkflows(list, '  ')).toHaveLength(2)
  })

  it('matches name, id and description case-insensitively, all words', () => {
    expect(filterWorkflows(list, 'FALLBACK').map((x) => x.id)).toEqual(['builtin:b'])
    expect(filterWorkflows(list, 'two query').map((x) => x.id)).toEqual(['builtin:a'])
    expect(filterWorkflows(list, 'builtin:a').map((x) => x.id)).toEqual(['builtin:a'])
    expect(filterWorkflows(list, 'search nothing')).toEqual([])
  })

  it('ignores missing fields', () => {
    expect(matches('x', undefined, 'x')).toBe(true)
  })
})
