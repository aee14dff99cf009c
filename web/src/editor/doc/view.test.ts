import { describe, expect, it } from 'vitest'
import type { GraphEdge } from '../../api/types'
import { searchDoc, tools } from '../test/fixtures'
import { updateStep } from './model'
import { adjustEdges, edgeOf, NodeBuilder, summaryOf } from './view'

describe('NodeBuilder', () => {
  it('draws inputs, every step from the catalog, and the output node', () => {
    const nodes = new NodeBuilder(tools).build(searchDoc())
    expect(nodes.map((n) => n.id)).toEqual(['__inputs', 'a', 'b', 'm', 't', '__output'])
    expect(nodes[0]).toEqual({ kind: 'inputs', id: '__inputs', inputs: [{ name: 'query', type: 'string', required: true }] })
    expect(nodes[1]).toMatchObject({ kind: 'step', name: 'a', tool: 'query', category: 'retrieval', icon: 'ManageSearch', summary: '{{ inputs.query }}' })
    expect(nodes[4]).toMatchObject({ condition: '{{ a.output.resultCount > 0 }}' })
    expect(nodes.at(-1)).toEqual({ kind: 'output', id: '__output', fields: ['results', 'first'] })
  })

  it('re-creates only the nodes whose step changed', () => {
    const builder = new NodeBuilder(tools)
    const doc = searchDoc()
    const before = builder.build(doc)
    const after = builder.build(updateStep(doc, 'b', (s) => ({ ...s, name: 'Second' })))
    expect(after.filter((n, i) => n !== before[i]).map((n) => n.id)).toEqual(['b'])
    expect(after[2]).toMatchObject({ name: 'Second' })
  })

  it('draws a step of an unknown tool like the server does, and an empty output node', () => {
    const nodes = new NodeBuilder({}).build({ name: 'w', steps: [{ id: 'x', tool: 'mystery', inputs: {} }] })
    expect(nodes[1]).toMatchObject({ category: 'utility', color: '#9E9E9E', icon: 'HelpOutline' })
    expect(nodes[2]).toEqual({ kind: 'output', id: '__output', fields: [] })
  })

  it('summarises the main input on one line, shortened', () => {
    expect(summaryOf('a\n  b')).toBe('a b')
    expect(summaryOf(['x'])).toBe('["x"]')
    expect(summaryOf('x'.repeat(100))).toBe(`${'x'.repeat(80)}…`)
  })
})

describe('adjustEdges', () => {
  const nodes = new NodeBuilder(tools).build(searchDoc())
  const e = (source: string, target: string, field: string): GraphEdge => ({
    id: `${source}->${target}:${field}`,
    source,
    target,
    kind: 'reference',
    label: '',
    field,
  })

  it('drops edges of missing nodes and adds new ones', () => {
    const edges = [e('a', 'm', 'inputs.arrays[0]'), e('gone', 'm', 'inputs.x')]
    const added = edgeOf({ source: 'b', path: 'b.output.results', target: 't', into: { kind: 'input', name: 'x' } })
    expect(adjustEdges(edges, nodes, {}, [added]).map((x) => x.id)).toEqual(['a->m:inputs.arrays[0]', 'b->t:inputs.x'])
  })

  it('follows renames and returns the same list when nothing changed', () => {
    const edges = [e('a', 'm', 'inputs.arrays[0]')]
    expect(adjustEdges(edges, nodes)).toBe(edges)
    const renamed = nodes.map((n) => (n.id === 'a' ? { ...n, id: 'first' } : n))
    expect(adjustEdges(edges, renamed, { a: 'first' })[0]).toMatchObject({ id: 'first->m:inputs.arrays[0]', source: 'first' })
  })

  it('gives each kind of connection the edge the server will draw', () => {
    expect(edgeOf({ source: '__inputs', path: 'inputs.q', target: 'a', into: { kind: 'input', name: 'query' } })).toMatchObject({
      kind: 'input',
      field: 'inputs.query',
    })
    expect(edgeOf({ source: 'c', target: 'x', into: { kind: 'branch', branch: 'else' } })).toMatchObject({ kind: 'else', label: 'x', field: 'inputs.else' })
    expect(edgeOf({ source: 'a', target: 'b', into: { kind: 'dependsOn' } })).toMatchObject({ kind: 'depends_on', field: 'dependsOn' })
    // A route, as the plan draws it: labelled with the route id, from the route's steps list.
    expect(edgeOf({ source: 'r', target: 'x', into: { kind: 'route', name: 'routes', route: 'billing', index: 1 } })).toEqual({
      id: 'r->x:inputs.routes[1].steps',
      source: 'r',
      target: 'x',
      kind: 'route',
      label: 'billing',
      field: 'inputs.routes[1].steps',
    })
    expect(edgeOf({ source: 'a', path: 'a.output', target: '__output', into: { kind: 'output', field: 'r' } })).toMatchObject({
      kind: 'output',
      field: 'output.r',
    })
  })
})
