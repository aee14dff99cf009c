import { describe, expect, it } from 'vitest'
import type { GraphView } from '../api/types'
import { branchingGraph, chainGraph, largeGraph } from './fixtures'
import type { CanvasNode } from './flowTypes'
import { boxesOverlap, flatten, lineHitsBox, routePieces, unionBox, type Box } from './geometry'
import { fits, layoutLinks, layoutNodes, linkKey, nodeSize, STEP_SIZE, type Laid, type LayoutView } from './layout'
import { fitView } from './legibleFit'
import { graphToFlow } from './toFlow'

function laidOut(graph: GraphView = branchingGraph(), view?: LayoutView) {
  const flow = graphToFlow(graph)
  return { flow, laid: layoutNodes(flow.nodes, flow.edges, view) }
}

const boxOf = (n: CanvasNode): Box => ({ ...n.position, width: n.width!, height: n.height! })

/** Each routed edge that passes through a node (its own two included), as "source → target: node". */
function crossings(laid: Laid<CanvasNode>, edges: { source: string; target: string }[]): string[] {
  const found: string[] = []
  for (const e of edges) {
    const route = laid.routes[linkKey(e.source, e.target)]
    if (!route) continue
    // As drawn: from just outside the source's side to just outside the target's.
    const line = flatten(routePieces({ x: route.from.x + 3, y: route.from.y }, route.points, { x: route.to.x - 3, y: route.to.y }))
    for (const n of laid.nodes) if (lineHitsBox(line, boxOf(n))) found.push(`${e.source} → ${e.target}: ${n.id}`)
  }
  return found
}

/** A 1024×768 screen's canvas (the shell takes the rest), at the legible zoom. */
const SMALL_SCREEN = fitView(1000, 560)

describe('layoutNodes', () => {
  it('places every node right of the nodes it references', () => {
    for (const graph of [branchingGraph(), largeGraph(120)]) {
      const { flow, laid } = laidOut(graph)
      const byId = new Map(laid.nodes.map((n) => [n.id, n]))
      for (const e of flow.edges) {
        const source = byId.get(e.source)!
        const target = byId.get(e.target)!
        expect(target.position.x, `${e.source} → ${e.target}`).toBeGreaterThanOrEqual(source.position.x + source.width!)
      }
    }
  })

  it('puts the inputs node first and the output node last', () => {
    const { laid } = laidOut()
    const xs = laid.nodes.map((n) => n.position.x)
    expect(laid.nodes[0].position.x).toBe(Math.min(...xs))
    expect(laid.nodes.at(-1)!.position.x).toBe(Math.max(...xs))
  })

  it('puts steps of one layer in one column, side by side', () => {
    const { laid } = laidOut()
    const answer = laid.nodes.find((n) => n.id === 'answer')!
    const fallback = laid.nodes.find((n) => n.id === 'fallback')!
    expect(answer.position.x).toBe(fallback.position.x)
    expect(Math.abs(answer.position.y - fallback.position.y)).toBeGreaterThanOrEqual(STEP_SIZE.height)
  })

  it('is deterministic and leaves its input untouched', () => {
    const flow = graphToFlow(largeGraph(60))
    const a = layoutNodes(flow.nodes, flow.edges, SMALL_SCREEN)
    const b = layoutNodes(flow.nodes, flow.edges, SMALL_SCREEN)
    expect(a.nodes.map((n) => n.position)).toEqual(b.nodes.map((n) => n.position))
    expect(a.routes).toEqual(b.routes)
    expect(flow.nodes.every((n) => n.position.x === 0 && n.position.y === 0)).toBe(true)
  })

  it('gives each node its fixed size', () => {
    const { laid } = laidOut()
    for (const n of laid.nodes) expect({ width: n.width, height: n.height }).toEqual(nodeSize(n))
    expect(laid.nodes.find((n) => n.id === 'search')).toMatchObject(STEP_SIZE)
  })

  it('ignores edges to unknown nodes (an invalid workflow still draws)', () => {
    const flow = graphToFlow(branchingGraph())
    const edges = [...flow.edges, { ...flow.edges[0], id: 'dangling', target: 'missing' }]
    const { nodes } = layoutNodes(flow.nodes, edges)
    expect(nodes).toHaveLength(flow.nodes.length)
    expect(nodes.every((n) => Number.isFinite(n.position.x) && Number.isFinite(n.position.y))).toBe(true)
  })
})

describe('edge routes', () => {
  const cases: Array<[string, GraphView, LayoutView | undefined]> = [
    ['branching', branchingGraph(), undefined],
    ['large (30)', largeGraph(30), undefined],
    ['chain (12), one row', chainGraph(12), undefined],
    ['chain (12), wrapped', chainGraph(12), SMALL_SCREEN],
    ['chain (20), wrapped', chainGraph(20), fitView(1000, 900)],
    ['large (20), wrapped', largeGraph(20), SMALL_SCREEN],
  ]
  for (const [name, graph, view] of cases) {
    it(`routes every edge of ${name} without crossing a node`, () => {
      const { flow, laid } = laidOut(graph, view)
      for (const e of flow.edges) expect(laid.routes[linkKey(e.source, e.target)], `${e.source} → ${e.target}`).toBeDefined()
      expect(crossings(laid, flow.edges)).toEqual([])
    })
  }

  it('routes long edges along lanes, not through the nodes they pass', () => {
    // inputs → c2 passes the column of c0 and c1.
    const { laid } = laidOut(chainGraph(4))
    const route = laid.routes[linkKey('__inputs', 'c2')]
    expect(route.points.length).toBeGreaterThanOrEqual(2)
    const passed = laid.nodes.filter((n) => n.id === 'c0' || n.id === 'c1').map(boxOf)
    const lanes = route.points.filter((p) => passed.some((b) => p.x >= b.x - 0.5 && p.x <= b.x + b.width + 0.5))
    expect(lanes.length).toBeGreaterThan(0)
    for (const p of lanes) for (const b of passed) expect(p.y < b.y || p.y > b.y + b.height).toBe(true)
  })

  it('makes the route for the sides of the two nodes it joins', () => {
    const { laid } = laidOut()
    const search = laid.nodes.find((n) => n.id === 'search')!
    const check = laid.nodes.find((n) => n.id === 'check')!
    expect(laid.routes[linkKey('search', 'check')]).toMatchObject({
      from: { x: search.position.x + search.width!, y: search.position.y + search.height! / 2 },
      to: { x: check.position.x, y: check.position.y + check.height! / 2 },
    })
  })
})

describe('wrapping', () => {
  const bounds = (laid: Laid<CanvasNode>) => unionBox(laid.nodes.map(boxOf))

  it('keeps a graph that fits in one row', () => {
    const one = laidOut(branchingGraph()).laid
    const viewed = laidOut(branchingGraph(), SMALL_SCREEN).laid
    expect(viewed.nodes.map((n) => n.position)).toEqual(one.nodes.map((n) => n.position))
  })

  it('wraps twelve chained steps onto rows that fit a small screen at the legible zoom', () => {
    const { laid } = laidOut(chainGraph(12), SMALL_SCREEN)
    expect(fits(bounds(laid), SMALL_SCREEN)).toBe(true)
    expect(fits(bounds(laidOut(chainGraph(12)).laid), SMALL_SCREEN)).toBe(false)
    // Rows: the output node sits below the inputs node, not to its right beyond the screen.
    const [inputs, output] = [laid.nodes[0], laid.nodes.at(-1)!]
    expect(output.position.y).toBeGreaterThan(inputs.position.y + inputs.height!)
    // Nothing overlaps.
    const boxes = laid.nodes.map(boxOf)
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(boxesOverlap(boxes[i], boxes[j])).toBe(false)
  })

  it('reads left to right within a row and top to bottom across rows', () => {
    const { laid } = laidOut(chainGraph(12), SMALL_SCREEN)
    const at = new Map(laid.nodes.map((n) => [n.id, n.position]))
    for (let i = 1; i < 12; i++) {
      const a = at.get(`c${i - 1}`)!
      const b = at.get(`c${i}`)!
      expect(b.x > a.x || b.y > a.y, `c${i - 1} → c${i}`).toBe(true)
    }
  })

  it('leaves a graph that fits no way in one row, to be panned', () => {
    const { laid } = laidOut(largeGraph(200), SMALL_SCREEN)
    const { laid: one } = laidOut(largeGraph(200))
    expect(laid.nodes.map((n) => n.position)).toEqual(one.nodes.map((n) => n.position))
  })

  it('wraps onto more rows on a taller canvas', () => {
    const wide = laidOut(chainGraph(20), fitView(2000, 500)).laid
    const tall = laidOut(chainGraph(20), fitView(700, 1400)).laid
    expect(bounds(tall).height / bounds(tall).width).toBeGreaterThan(bounds(wide).height / bounds(wide).width)
  })
})

describe('layoutLinks', () => {
  it('keeps every link for small graphs and only adjacent-rank links for large ones', () => {
    const small = graphToFlow(branchingGraph())
    expect(layoutLinks(small.nodes, small.edges).links).toHaveLength(small.edges.length)
    const large = graphToFlow(largeGraph(200))
    const { links, tightOnly } = layoutLinks(large.nodes, large.edges)
    expect(tightOnly).toBe(true)
    expect(links.length).toBeLessThan(large.edges.length)
    expect(links.length).toBeGreaterThanOrEqual(large.nodes.length - 1)
  })
})
