//! One left-to-right row of the layout, by dagre, with the route of each link drawn through it.
//! A row is a set of columns (dagre's ranks) with gaps between them. Nothing but edges lies in
//! a gap, so an edge may cross one any way it likes; it crosses a column only on a lane, the
//! height dagre reserved there for it (a dummy node, kept clear of the column's nodes). So every
//! route here is: along the source's column, then through gaps and lanes, into the target's
//! column, and no route passes through a node.
import dagre from '@dagrejs/dagre'
import type { Box, XY } from './geometry'
import type { Link } from './ranks'

export const NODE_SEP = 16
/** Between lanes (long edges passing a column), and half of it between a lane and a node. */
const EDGE_SEP = 8
export const RANK_SEP = 44

/** A column's extent along x: its widest node. */
export interface Span {
  left: number
  right: number
}

/** Nodes placed and links routed. */
export interface Placed {
  /** Top-left boxes by node id. */
  boxes: Map<string, Box>
  /** The points each link's edge passes through between its two nodes, by `linkKey`. */
  routes: Map<string, XY[]>
  /** Everything drawn: nodes and routes. */
  bounds: Box
}

export interface Row extends Placed {
  columns: Span[]
}

export const linkKey = (source: string, target: string) => `${source}\u0000${target}`

export interface Size {
  width: number
  height: number
}

/** Lays out `ids` with dagre along `links` (acyclic, between those ids); `tight`: every link joins adjacent ranks. */
export function layoutRow(ids: string[], sizes: Map<string, Size>, links: Link[], tight: boolean): Row {
  const g = new dagre.graphlib.Graph({ multigraph: false })
  g.setGraph({
    rankdir: 'LR',
    nodesep: NODE_SEP,
    edgesep: EDGE_SEP,
    ranksep: RANK_SEP,
    marginx: 0,
    marginy: 0,
    // When every link already joins adjacent ranks, the ranks are settled: skip network simplex.
    ranker: tight ? 'tight-tree' : 'network-simplex',
  })
  g.setDefaultEdgeLabel(() => ({}))
  for (const id of ids) g.setNode(id, { ...sizes.get(id)! })
  for (const link of links) g.setEdge(link.source, link.target)
  dagre.layout(g)

  const boxes = new Map<string, Box>()
  for (const id of ids) {
    const { x, y } = g.node(id)
    const { width, height } = sizes.get(id)!
    boxes.set(id, { x: (x ?? 0) - width / 2, y: (y ?? 0) - height / 2, width, height })
  }
  const columns = columnsOf(boxes)
  const routes = new Map<string, XY[]>()
  for (const { source, target } of links) {
    const points = g.edge(source, target)?.points ?? []
    routes.set(linkKey(source, target), lanePoints(boxes.get(source)!, boxes.get(target)!, points.slice(1, -1), columns))
  }
  return { boxes, routes, columns, bounds: boundsOf(boxes, routes) }
}

/** The columns: nodes grouped by the centre dagre gave their rank, each as wide as its widest. */
function columnsOf(boxes: Map<string, Box>): Span[] {
  const byCentre = new Map<number, Span>()
  for (const b of boxes.values()) {
    const centre = Math.round((b.x + b.width / 2) * 2) / 2
    const span = byCentre.get(centre)
    if (!span) byCentre.set(centre, { left: b.x, right: b.x + b.width })
    else {
      span.left = Math.min(span.left, b.x)
      span.right = Math.max(span.right, b.x + b.width)
    }
  }
  return [...byCentre.values()].sort((a, b) => a.left - b.left)
}

export function columnOf(columns: Span[], box: Box): Span {
  const centre = box.x + box.width / 2
  return columns.find((c) => c.left <= centre && centre <= c.right) ?? { left: box.x, right: box.x + box.width }
}

/**
 * A link's route from dagre's dummy points: level with the source to its column's right edge,
 * across each column it passes on the lane dagre kept there (dummies in gaps only shape dagre's
 * own curve and are dropped), and level with the target from its column's left edge.
 */
function lanePoints(source: Box, target: Box, dummies: XY[], columns: Span[]): XY[] {
  const out: XY[] = []
  const from = columnOf(columns, source)
  const to = columnOf(columns, target)
  if (from.right > source.x + source.width) out.push({ x: from.right, y: source.y + source.height / 2 })
  for (const d of dummies) {
    const lane = columns.find((c) => Math.abs((c.left + c.right) / 2 - d.x) < 0.5)
    if (lane) out.push({ x: lane.left, y: d.y }, { x: lane.right, y: d.y })
  }
  if (to.left < target.x) out.push({ x: to.left, y: target.y + target.height / 2 })
  return out
}

function boundsOf(boxes: Map<string, Box>, routes: Map<string, XY[]>): Box {
  let left = Infinity
  let top = Infinity
  let right = -Infinity
  let bottom = -Infinity
  for (const b of boxes.values()) {
    left = Math.min(left, b.x)
    top = Math.min(top, b.y)
    right = Math.max(right, b.x + b.width)
    bottom = Math.max(bottom, b.y + b.height)
  }
  for (const points of routes.values()) {
    for (const p of points) {
      top = Math.min(top, p.y)
      bottom = Math.max(bottom, p.y)
    }
  }
  return { x: left, y: top, width: right - left, height: bottom - top }
}
