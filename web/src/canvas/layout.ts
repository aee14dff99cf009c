//! Left-to-right layered layout with dagre. Pure and deterministic: the same nodes and edges
//! (in the same order) always get the same positions. Run once per graph, not per render.
import dagre from '@dagrejs/dagre'
import type { CanvasEdge, CanvasNode } from './flowTypes'
import { longestPathRanks, type Link } from './ranks'

export const STEP_SIZE = { width: 240, height: 92 } as const
const IO_WIDTH = 200
const IO_HEADER = 40
const IO_ROW = 22
/** Inputs/output nodes list at most this many rows, then "+N more". */
export const IO_MAX_ROWS = 8
/**
 * Dagre's crossing minimisation slows down sharply with the dummy nodes long edges add (a
 * 200-step workflow whose steps all read `inputs.query` takes seconds). Past this many dummies,
 * only rank-to-next-rank links are laid out; the long ones are still drawn.
 */
export const MAX_DUMMY_NODES = 400
const INPUTS_ID = '__inputs'

export interface Size {
  width: number
  height: number
}

/** Fixed per type; inputs/output grow with their (capped) row count. */
export function nodeSize(node: CanvasNode): Size {
  switch (node.type) {
    case 'step':
      return STEP_SIZE
    case 'inputs':
      return ioSize(node.data.inputs.length)
    case 'output':
      return ioSize(node.data.fields.length)
  }
}

function ioSize(rows: number): Size {
  const shown = Math.max(1, Math.min(rows, IO_MAX_ROWS) + (rows > IO_MAX_ROWS ? 1 : 0))
  return { width: IO_WIDTH, height: IO_HEADER + shown * IO_ROW + 8 }
}

/** Returns new nodes positioned (top-left) by dagre, with their fixed width and height set. */
export function layoutNodes<N extends CanvasNode>(nodes: N[], edges: CanvasEdge[]): N[] {
  const { links, tightOnly } = layoutLinks(nodes, edges)
  const g = new dagre.graphlib.Graph({ multigraph: false })
  g.setGraph({
    rankdir: 'LR',
    nodesep: 28,
    ranksep: 90,
    marginx: 20,
    marginy: 20,
    // When every link already joins adjacent ranks, the ranks are settled: skip network simplex.
    ranker: tightOnly ? 'tight-tree' : 'network-simplex',
  })
  g.setDefaultEdgeLabel(() => ({}))
  const sizes = new Map<string, Size>()
  for (const node of nodes) {
    const size = nodeSize(node)
    sizes.set(node.id, size)
    g.setNode(node.id, { ...size })
  }
  for (const link of links) g.setEdge(link.source, link.target)
  dagre.layout(g)
  return nodes.map((node) => {
    const size = sizes.get(node.id)!
    const { x, y } = g.node(node.id)
    return {
      ...node,
      position: { x: (x ?? 0) - size.width / 2, y: (y ?? 0) - size.height / 2 },
      width: size.width,
      height: size.height,
    }
  })
}

/**
 * The links dagre sees: acyclic, between known nodes, every parentless node hung off the inputs
 * node (so the graph is connected), and — for graphs with many long edges — only the links
 * joining adjacent ranks. Those always include each node's furthest reference, so dagre
 * reproduces the longest-path ranks and every dropped link still points right.
 */
export function layoutLinks(nodes: CanvasNode[], edges: Link[]): { links: Link[]; tightOnly: boolean } {
  const { rank, links } = longestPathRanks(
    nodes.map((n) => n.id),
    edges,
    INPUTS_ID,
  )
  const span = (l: Link) => rank.get(l.target)! - rank.get(l.source)!
  const dummies = links.reduce((sum, l) => sum + span(l) - 1, 0)
  if (dummies <= MAX_DUMMY_NODES) return { links, tightOnly: dummies === 0 }
  return { links: links.filter((l) => span(l) === 1), tightOnly: true }
}
