import { describe, expect, it } from 'vitest'
import { branchingGraph, routerGraph } from './fixtures'
import { linkKey } from './layout'
import { EDGE_LOOKS, edgeLabel, graphToFlow, withRoutes } from './toFlow'

describe('graphToFlow', () => {
  const graph = branchingGraph()
  const flow = graphToFlow(graph)

  it('makes one node per graph node, typed by kind, carrying the graph node as data', () => {
    expect(flow.nodes.map((n) => n.id)).toEqual(graph.nodes.map((n) => n.id))
    expect(flow.nodes.map((n) => n.type)).toEqual(['inputs', 'step', 'step', 'step', 'step', 'step', 'output'])
    for (const node of flow.nodes) {
      expect(node.data.kind).toBe(node.type)
      expect(node.sourcePosition).toBe('right')
      expect(node.targetPosition).toBe('left')
    }
    const search = flow.nodes.find((n) => n.id === 'search')!
    expect(search.data.kind === 'step' && search.data.tool).toBe('search')
  })

  it('keeps edge ids, endpoints and kinds', () => {
    expect(flow.edges).toHaveLength(graph.edges.length)
    flow.edges.forEach((e, i) => {
      const g = graph.edges[i]
      expect(e).toMatchObject({ id: g.id, source: g.source, target: g.target, type: 'flow' })
      expect(e.data).toMatchObject({ kind: g.kind, label: g.label, field: g.field })
    })
  })

  it("names each edge by its steps' ids", () => {
    expect(flow.edges[0].ariaLabel).toBe('Edge from __inputs to search')
  })

  it('gives edges the routes the layout made for them, and leaves the others without', () => {
    const route = { from: { x: 0, y: 0 }, to: { x: 100, y: 0 }, points: [] }
    const routed = withRoutes(flow.edges, { [linkKey('__inputs', 'search')]: route })
    expect(routed[0].data?.route).toBe(route)
    expect(routed[1].data?.route).toBeUndefined()
    // Unchanged edges are the same objects.
    expect(routed[1]).toBe(flow.edges[1])
  })

  it('draws then and else differently and always labels them', () => {
    const then = flow.edges.find((e) => e.data?.kind === 'then')!
    const otherwise = flow.edges.find((e) => e.data?.kind === 'else')!
    expect(then.style?.strokeDasharray).toBeUndefined()
    expect(otherwise.style?.strokeDasharray).toBeDefined()
    expect(then.style?.stroke).not.toBe(otherwise.style?.stroke)
    expect(then.data?.alwaysShowLabel).toBe(true)
    expect(otherwise.data?.alwaysShowLabel).toBe(true)
    expect(edgeLabel(then.data!)).toBe('then')
    expect(edgeLabel(otherwise.data!)).toBe('else')
  })

  it("draws a router's route edges in their own colour, always labelled with the route id", () => {
    const routes = graphToFlow(routerGraph()).edges.filter((e) => e.data?.kind === 'route')
    expect(routes.map((e) => edgeLabel(e.data!))).toEqual(['billing', 'technical', 'technical'])
    for (const e of routes) {
      expect(e.data?.alwaysShowLabel).toBe(true)
      expect(e.style?.stroke).toBe(EDGE_LOOKS.route.stroke)
    }
    expect(new Set([EDGE_LOOKS.then.stroke, EDGE_LOOKS.else.stroke, EDGE_LOOKS.reference.stroke]).has(EDGE_LOOKS.route.stroke)).toBe(false)
  })

  it('styles dependsOn dotted grey and data edges solid', () => {
    const dep = flow.edges.find((e) => e.data?.kind === 'depends_on')!
    expect(dep.style).toMatchObject(EDGE_LOOKS.depends_on)
    expect(dep.style?.strokeDasharray).toBe('2 4')
    for (const kind of ['input', 'output', 'reference'] as const) {
      const e = flow.edges.find((x) => x.data?.kind === kind)!
      expect(e.style?.strokeDasharray).toBeUndefined()
      expect(e.data?.alwaysShowLabel).toBe(false)
    }
  })

  it('labels reference edges with the referenced path and the target field', () => {
    const ref = flow.edges.find((e) => e.data?.kind === 'reference')!
    expect(edgeLabel(ref.data!)).toBe('search.output.results → inputs.condition')
  })
})
