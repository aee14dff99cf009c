import { describe, expect, it } from 'vitest'
import type { CategoryView } from '../../api/types'
import { tools } from '../test/fixtures'
import { bestMatch, groupTools } from './filterTools'

const categories: CategoryView[] = [
  { id: 'retrieval', label: 'Retrieval', color: '#40E0FF' },
  { id: 'control_flow', label: 'Control flow', color: '#90A4AE' },
  { id: 'utility', label: 'Utility', color: '#90A4AE' },
]

describe('groupTools', () => {
  it('groups every tool under its category, in the catalog order', () => {
    const groups = groupTools(Object.values(tools), categories, '')
    expect(groups.map((g) => g.category.id)).toEqual(['retrieval', 'control_flow', 'utility'])
    expect(groups[1].tools.map((t) => t.name)).toEqual(['merge', 'conditional'])
  })

  it('searches name, label and description, all words, case-insensitively', () => {
    expect(groupTools(Object.values(tools), categories, 'MERGE').flatMap((g) => g.tools.map((t) => t.name))).toEqual(['merge'])
    expect(groupTools(Object.values(tools), categories, 'the tool cond').flatMap((g) => g.tools.map((t) => t.name))).toEqual(['conditional'])
    expect(groupTools(Object.values(tools), categories, 'nothing like it')).toEqual([])
  })

  it('keeps tools of a category the catalog does not list', () => {
    const groups = groupTools([{ ...tools.query, category: 'integration' }], categories, '')
    expect(groups).toHaveLength(1)
    expect(groups[0].category.label).toBe('Other')
  })
})

describe('bestMatch', () => {
  const best = (query: string) => bestMatch(groupTools(Object.values(tools), categories, query), query)?.name

  it('prefers a tool named by the query over one whose description mentions it', () => {
    const described = { ...tools.merge, name: 'combine', label: 'Combine', description: 'like merge, but more' }
    const groups = groupTools([described, ...Object.values(tools)], categories, 'merge')
    expect(groups.flatMap((g) => g.tools.map((t) => t.name))[0]).toBe('combine')
    expect(bestMatch(groups, 'merge')?.name).toBe('merge')
  })

  it('takes a name prefix, then the first in palette order', () => {
    expect(best('cond')).toBe('conditional')
    expect(best('')).toBe(groupTools(Object.values(tools), categories, '')[0].tools[0].name)
    expect(best('nothing like it')).toBeUndefined()
  })
})
