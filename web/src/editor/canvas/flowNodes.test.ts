import { describe, expect, it } from 'vitest'
import type { GraphEdge, GraphNode } from '../../api/types'
import { edgeId, stepNode } from '../doc/view'
import { FlowNodeCache } from './flowNodes'
import { linkKey } from '../../canvas/layout'

const node = (id: string, text = id): GraphNode => stepNode({ id, tool: 'template', inputs: { text } }, undefined)
const edge = (source: string, target: string): GraphEdge => ({
  id: edgeId(source, target, 'inputs.text'),
  source,
  target,
  kind: 'reference',
  label: `${source}.output.text`,
  field: 'inputs.text',
})
const NONE = new Set<string>()

describe('FlowNodeCache', () => {
  it('hands React Flow the same objects (and list) while nothing changed', () => {
    const cache = new FlowNodeCache()
    const graph = [node('a'), node('b')]
    const keys = { a: 'a', b: 'b' }
    const first = cache.build(graph, keys, [], {}, {}, NONE)
    expect(cache.build([...graph], keys, [], {}, {}, NONE)).toBe(first)
    const edges = [edge('a', 'b')]
    const drawn = cache.buildEdges(edges, keys, NONE)
    // A new plan with the same edges: the same list again.
    expect(cache.buildEdges([{ ...edges[0] }], keys, NONE)).toBe(drawn)
  })

  it('draws a renamed step under its key, and its edges under the keys of their ends', () => {
    const cache = new FlowNodeCache()
    const before = cache.build([node('a'), node('b', '{{ a.output.text }}')], { a: 'a', b: 'b' }, [], {}, {}, NONE)
    const [drawn] = cache.buildEdges([edge('a', 'b')], { a: 'a', b: 'b' }, NONE)
    expect(drawn.domAttributes).toBeUndefined()

    const keys = { x: 'a', b: 'b' }
    const after = cache.build([node('x'), node('b', '{{ x.output.text }}')], keys, [], {}, {}, new Set(['x']))
    expect(after.map((n) => n.id)).toEqual(['a', 'b'])
    expect(after[0].data).toMatchObject({ id: 'x' })
    expect(after[0].selected).toBe(true)
    expect(after[0]).not.toBe(before[0])

    const [renamed] = cache.buildEdges([edge('x', 'b')], keys, new Set(['x->b:inputs.text']))
    expect(renamed).toMatchObject({ id: drawn.id, source: 'a', target: 'b', selected: true, domAttributes: { 'data-id': 'x->b:inputs.text' } })
    expect(renamed.data?.label).toBe('x.output.text')
    // What React Flow reports back is the store's (the graph's) edge id.
    expect(cache.edgeIdOf(renamed.id)).toBe('x->b:inputs.text')
    // And what a person (or a screen reader) is told names the steps by their ids.
    expect(drawn.ariaLabel).toBe('Edge from a to b')
    expect(renamed.ariaLabel).toBe('Edge from x to b')
  })

  it('draws an edge along the route it is given, and redraws it only when that changes', () => {
    const cache = new FlowNodeCache()
    const keys = { a: 'a', b: 'b' }
    const route = { from: { x: 188, y: 41 }, to: { x: 232, y: 41 }, points: [] }
    const routes = { [linkKey('a', 'b')]: route }
    const [first] = cache.buildEdges([edge('a', 'b')], keys, NONE, routes)
    expect(first.data?.route).toBe(route)
    expect(cache.buildEdges([edge('a', 'b')], keys, NONE, { ...routes })[0]).toBe(first)
    const [unrouted] = cache.buildEdges([edge('a', 'b')], keys, NONE, {})
    expect(unrouted).not.toBe(first)
    expect(unrouted.data?.route).toBeUndefined()
  })
})
