import { describe, expect, it } from 'vitest'
import { branchingGraph, largeGraph } from './fixtures'
import { layoutLinks, layoutNodes, nodeSize, STEP_SIZE } from './layout'
import { graphToFlow } from './toFlow'

function laidOut(graph = branchingGraph()) {
  const flow = graphToFlow(graph)
  return { flow, nodes: layoutNodes(flow.nodes, flow.edges) }
}

describe('layoutNodes', () => {
  it('places every node right of the nodes it references', () => {
    for (const graph of [branchingGraph(), largeGraph(120)]) {
      const { flow, nodes } = laidOut(graph)
      const byId = new Map(nodes.map((n) => [n.id, n]))
      for (const e of flow.edges) {
        const source = byId.get(e.source)!
        const target = byId.get(e.target)!
        expect(target.position.x, `${e.source} → ${e.target}`).toBeGreaterThanOrEqual(source.position.x + source.width!)
      }
    }
  })

  it('puts the inputs node first and the output node last', () => {
    const { nodes } = laidOut()
    const xs = nodes.map((n) => n.position.x)
    expect(nodes[0].position.x).toBe(Math.min(...xs))
    expect(nodes.at(-1)!.position.x).toBe(Math.max(...xs))
  })

  it('puts steps of one layer in one column, side by side', () => {
    const { nodes } = laidOut()
    const answer = nodes.find((n) => n.id === 'answer')!
    const fallback = nodes.find((n) => n.id === 'fallback')!
    expect(answer.position.x).toBe(fallback.position.x)
    expect(Math.abs(answer.position.y - fallback.position.y)).toBeGreaterThanOrEqual(STEP_SIZE.height)
  })

  it('is deterministic and leaves its input untouched', () => {
    const flow = graphToFlow(largeGraph(60))
    const a = layoutNodes(flow.nodes, flow.edges)
    const b = layoutNodes(flow.nodes, flow.edges)
    expect(a.map((n) => n.position)).toEqual(b.map((n) => n.position))
    expect(flow.nodes.every((n) => n.position.x === 0 && n.position.y === 0)).toBe(true)
  })

  it('gives each node its fixed size', () => {
    const { nodes } = laidOut()
    for (const n of nodes) expect({ width: n.width, height: n.height }).toEqual(nodeSize(n))
    expect(nodes.find((n) => n.id === 'search')).toMatchObject(STEP_SIZE)
  })

  it('ignores edges to unknown nodes (an invalid workflow still draws)', () => {
    const flow = graphToFlow(branchingGraph())
    const edges = [...flow.edges, { ...flow.edges[0], id: 'dangling', target: 'missing' }]
    const nodes = layoutNodes(flow.nodes, edges)
    expect(nodes).toHaveLength(flow.nodes.length)
    expect(nodes.every((n) => Number.isFinite(n.position.x) && Number.isFinite(n.position.y))).toBe(true)
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
