import { describe, expect, it } from 'vitest'
import type { GraphEdge, Workflow } from '../../api/types'
import { searchDoc, searchSites } from '../test/fixtures'
import { findStep } from './model'
import { deleteSteps, removeReferences, sitesOfEdge } from './references'

const sites = searchSites()
const bySite = (pointer: string, path: string) => sites.filter((s) => s.pointer === pointer && s.path === path)

describe('removeReferences (disconnect)', () => {
  it('removes a whole-value reference with its key', () => {
    const doc = searchDoc()
    const { doc: next, kept } = removeReferences(doc, bySite('/steps/0/inputs/query', 'inputs.query'))
    expect(kept).toEqual([])
    expect(findStep(next, 'a')?.inputs).toEqual({ collection: 'one' })
    expect(next.steps[1]).toBe(doc.steps[1])
  })

  it('removes an array element and nothing else', () => {
    const { doc } = removeReferences(searchDoc(), bySite('/steps/2/inputs/arrays/0', 'a.output.results'))
    expect(findStep(doc, 'm')?.inputs).toEqual({ arrays: ['{{ b.output.results }}'], dedup: true })
  })

  it('removes an embedded template only, keeping the rest of the text byte for byte', () => {
    const { doc } = removeReferences(searchDoc(), bySite('/steps/3/inputs/text', 'a.output.resultCount'))
    expect(findStep(doc, 't')?.inputs.text).toBe('Found  for {{ inputs.query }}')
  })

  it('removes two references in one string, later offsets first', () => {
    const { doc } = removeReferences(
      searchDoc(),
      sites.filter((s) => s.pointer === '/steps/3/inputs/text'),
    )
    expect(findStep(doc, 't')?.inputs.text).toBe('Found  for ')
  })

  it('drops dependsOn when its last id goes', () => {
    const { doc } = removeReferences(searchDoc(), bySite('/steps/1/dependsOn/0', 'a'))
    expect(findStep(doc, 'b')).not.toHaveProperty('dependsOn')
  })

  it('removes several elements of one array in a safe order', () => {
    const { doc } = removeReferences(
      searchDoc(),
      sites.filter((s) => s.pointer.startsWith('/steps/2/inputs/arrays')),
    )
    expect(findStep(doc, 'm')?.inputs.arrays).toEqual([])
  })

  it('keeps a reference that is part of a larger expression, saying why', () => {
    const doc = searchDoc()
    const { doc: next, kept } = removeReferences(doc, bySite('/steps/3/condition', 'a.output.resultCount'))
    expect(next).toBe(doc)
    expect(kept[0].reason).toMatch(/part of the expression \{\{ a\.output\.resultCount > 0 \}\} in condition/)
  })

  it('keeps a reference whose value changed since it was indexed', () => {
    const doc = searchDoc()
    doc.steps[0].inputs.query = 42
    expect(removeReferences(doc, bySite('/steps/0/inputs/query', 'inputs.query')).kept).toHaveLength(1)
  })
})

describe('sitesOfEdge', () => {
  const edge = (source: string, target: string, kind: GraphEdge['kind'], field: string): GraphEdge => ({
    id: `${source}->${target}:${field}`,
    source,
    target,
    kind,
    label: '',
    field,
  })

  it('finds data, dependsOn and output references', () => {
    expect(sitesOfEdge(edge('a', 'm', 'reference', 'inputs.arrays[0]'), sites).map((s) => s.pointer)).toEqual(['/steps/2/inputs/arrays/0'])
    expect(sitesOfEdge(edge('a', 'b', 'depends_on', 'dependsOn'), sites).map((s) => s.pointer)).toEqual(['/steps/1/dependsOn/0'])
    expect(sitesOfEdge(edge('m', '__output', 'output', 'output.results'), sites).map((s) => s.pointer)).toEqual(['/output/results'])
    expect(sitesOfEdge(edge('__inputs', 't', 'input', 'inputs.text'), sites).map((s) => s.path)).toEqual(['inputs.query'])
  })

  it('finds branch ids in the conditional, which is the edge source', () => {
    const branch = { ...sites[2], pointer: '/steps/0/inputs/then/0', stepId: 'c', field: 'inputs.then[0]', target: 'x', path: 'x', root: 'x' }
    expect(sitesOfEdge(edge('c', 'x', 'then', 'inputs.then'), [branch])).toEqual([branch])
    expect(sitesOfEdge(edge('c', 'x', 'else', 'inputs.else'), [branch])).toEqual([])
  })

  it("finds a route's step ids in the router, which is the edge source", () => {
    const routed = {
      ...sites[2],
      pointer: '/steps/0/inputs/routes/1/steps/0',
      stepId: 'r',
      field: 'inputs.routes[1].steps[0]',
      target: 'x',
      path: 'x',
      root: 'x',
    }
    expect(sitesOfEdge(edge('r', 'x', 'route', 'inputs.routes[1].steps'), [routed])).toEqual([routed])
    expect(sitesOfEdge(edge('r', 'x', 'route', 'inputs.routes'), [routed])).toEqual([routed])
    expect(sitesOfEdge(edge('r', 'x', 'route', 'inputs.routes[0].steps'), [routed])).toEqual([])
  })
})

describe('deleteSteps', () => {
  it('removes the steps, their positions and the references others hold to them', () => {
    const doc: Workflow = { ...searchDoc(), ui: { positions: { a: { x: 1, y: 2 }, b: { x: 3, y: 4 } } } }
    const { doc: next, kept } = deleteSteps(doc, new Set(['a']), sites)
    expect(next.steps.map((s) => s.id)).toEqual(['b', 'm', 't'])
    expect(findStep(next, 'b')).not.toHaveProperty('dependsOn')
    expect(findStep(next, 'm')?.inputs.arrays).toEqual(['{{ b.output.results }}'])
    expect(findStep(next, 't')?.inputs.text).toBe('Found  for {{ inputs.query }}')
    expect(next.output).toEqual({ results: '{{ m.output.results }}' })
    expect(next.ui).toEqual({ positions: { b: { x: 3, y: 4 } } })
    // The condition reads a inside an expression: it stays, and validation will flag it.
    expect(findStep(next, 't')?.condition).toBe('{{ a.output.resultCount > 0 }}')
    expect(kept.map((k) => k.site.field)).toEqual(['condition'])
  })

  it('does not touch references held by steps deleted together', () => {
    const { doc, kept } = deleteSteps(searchDoc(), new Set(['a', 't']), sites)
    expect(doc.steps.map((s) => s.id)).toEqual(['b', 'm'])
    expect(kept).toEqual([])
  })

  it('keeps unknown keys and untouched objects', () => {
    const doc = searchDoc()
    const { doc: next } = deleteSteps(doc, new Set(['t']), sites)
    expect(next.branding).toBe(doc.branding)
    expect(next.steps[0]).toBe(doc.steps[0])
    expect(Object.keys(next)).toEqual(Object.keys(doc))
  })
})
