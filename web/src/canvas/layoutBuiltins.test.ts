// The layout of every workflow the playground ships (their graphs as the server planned them,
// recorded in fixtures/builtin-graphs.json), on the canvases a user test found wanting.
import { describe, expect, it } from 'vitest'
import type { GraphView } from '../api/types'
import { NO_ESTIMATE } from '../plan/estimate'
import recorded from './fixtures/builtin-graphs.json'
import type { CanvasNode } from './flowTypes'
import { flatten, lineHitsBox, routePieces, unionBox, type Box } from './geometry'
import { fits, layoutNodes, linkKey, type LayoutView } from './layout'
import { fitView } from './legibleFit'
import { graphToFlow } from './toFlow'

const graphs = Object.entries(recorded as Record<string, Pick<GraphView, 'nodes' | 'edges'>>).map(([id, g]): [string, GraphView] => [
  id,
  { name: id, ...g, layers: [], estimate: NO_ESTIMATE, runnable: true },
])

/** The canvas at 1024×768 (the library and inspector are drawers), and at 1440×900 (beside it). */
const CANVASES: Array<[string, LayoutView]> = [
  ['1024×768', fitView(1024, 614)],
  // RAG Chat's run bar has seven inputs: the canvas is shorter.
  ['1024×768, seven inputs', fitView(1024, 568)],
  ['1440×900', fitView(780, 742)],
  ['1024×768, presenting', fitView(1024, 552, 1.5)],
]

const boxOf = (n: CanvasNode): Box => ({ ...n.position, width: n.width!, height: n.height! })

describe('the shipped workflows', () => {
  for (const [id, graph] of graphs) {
    for (const [name, view] of [['one row', undefined] as const, ...CANVASES]) {
      it(`${id} (${name}): every edge routed, none through a node`, () => {
        const flow = graphToFlow(graph)
        const laid = layoutNodes(flow.nodes, flow.edges, view)
        const crossing: string[] = []
        for (const e of flow.edges) {
          const route = laid.routes[linkKey(e.source, e.target)]
          expect(route, `${e.source} → ${e.target}`).toBeDefined()
          const line = flatten(routePieces({ x: route.from.x + 3, y: route.from.y }, route.points, { x: route.to.x - 3, y: route.to.y }))
          for (const n of laid.nodes) if (lineHitsBox(line, boxOf(n))) crossing.push(`${e.source} → ${e.target} crosses ${n.id}`)
        }
        expect(crossing).toEqual([])
      })
    }
  }

  it('all fit whole and legible on the 1024×768 and 1440×900 canvases', () => {
    const misfits: string[] = []
    for (const [name, view] of CANVASES.slice(0, 3)) {
      for (const [id, graph] of graphs) {
        const flow = graphToFlow(graph)
        const { nodes } = layoutNodes(flow.nodes, flow.edges, view)
        if (!fits(unionBox(nodes.map(boxOf)), view)) misfits.push(`${id} on ${name}`)
      }
    }
    // Between the library and the inspector a 1440 px screen leaves a 780 px canvas, narrower
    // than a 1024 px one; RAG Chat (eleven steps, ten layers) fits it once a panel is hidden.
    expect(misfits).toEqual(['builtin:rag-chat on 1440×900'])
  })
})
