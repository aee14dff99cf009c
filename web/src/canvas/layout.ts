//! The automatic layout: left-to-right layers by dagre (layoutRow.ts), every edge routed around
//! the nodes, and — when the graph is too wide for the canvas at a legible zoom but would fit
//! wrapped — wrapped onto rows like text (wrap.ts). Pure and deterministic: the same nodes and
//! edges (in the same order) on the same canvas always get the same positions. Run once per
//! graph, not per render.
import type { CanvasNode } from './flowTypes'
import type { Box, XY } from './geometry'
import { layoutRow, linkKey, NODE_SEP, RANK_SEP, type Placed, type Size } from './layoutRow'
import { longestPathRanks, type Link } from './ranks'
import { wrapRows } from './wrap'

export { linkKey } from './layoutRow'
export type { Size } from './layoutRow'

/** Narrow enough that five layers fit across a 1024 px screen with legible titles. */
export const STEP_SIZE = { width: 188, height: 82 } as const
const IO_WIDTH = 160
const IO_HEADER = 36
/** Height of one row of the inputs and output nodes. */
export const IO_ROW = 20
/** Inputs/output nodes list at most this many rows, then "+N more". */
export const IO_MAX_ROWS = 8
/**
 * Dagre's crossing minimisation slows down sharply with the dummy nodes long edges add (a
 * 200-step workflow whose steps all read `inputs.query` takes seconds). Past this many dummies,
 * only rank-to-next-rank links are laid out; the long ones are still drawn.
 */
export const MAX_DUMMY_NODES = 400
/** Wrapping is tried only for graphs up to this many nodes: larger ones are panned anyway. */
const MAX_WRAPPED_NODES = 60
const INPUTS_ID = '__inputs'

/** The canvas a layout is made for: its size in CSS px and the least zoom a fit may use. */
export interface LayoutView {
  width: number
  height: number
  zoom: number
  /** Space kept free at each edge of the canvas (CSS px). */
  margin: number
}

/**
 * Where an edge runs between its two nodes, as laid out: `from` and `to` are the middles of the
 * source's right side and the target's left side it was routed for (a node moved since makes
 * the route stale), `points` the corners and lane ends in between.
 */
export interface Route {
  from: XY
  to: XY
  points: XY[]
}

/** Routes by `linkKey(source, target)`. */
export type Routes = Record<string, Route>

export interface Laid<N> {
  nodes: N[]
  routes: Routes
  /** Whether it fits the view it was laid out for (undefined without one). */
  fits?: boolean
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

/**
 * Returns new nodes positioned (top-left), with their fixed width and height set, and the route
 * of every edge the layout placed. Given the canvas, a graph that does not fit it in one row
 * at `view.zoom` is wrapped onto as few rows as make it fit; one that fits no way stays in one
 * row (to be panned from its start).
 */
export function layoutNodes<N extends CanvasNode>(nodes: N[], edges: Link[], view?: LayoutView): Laid<N> {
  const sizes = new Map<string, Size>(nodes.map((n) => [n.id, nodeSize(n)]))
  const ids = nodes.map((n) => n.id)
  const { links, tightOnly, rank } = layoutLinks(nodes, edges)
  let laid: Placed = layoutRow(ids, sizes, links, tightOnly)
  if (view && !fits(laid.bounds, view) && mayFit(sizes, view)) {
    const ranks = Math.max(...rank.values()) + 1
    let tried = ranks
    for (let bands = 2; bands <= ranks; bands++) {
      const perBand = Math.ceil(ranks / bands)
      if (perBand < 2 || perBand === tried) continue
      tried = perBand
      const wrapped = wrapRows(ids, sizes, rank, links, perBand)
      if (fits(wrapped.bounds, view)) {
        laid = wrapped
        break
      }
    }
  }
  const routes: Routes = {}
  for (const [key, points] of laid.routes) {
    const [source, target] = key.split('\u0000')
    const s = laid.boxes.get(source)!
    const t = laid.boxes.get(target)!
    routes[key] = { from: { x: s.x + s.width, y: s.y + s.height / 2 }, to: { x: t.x, y: t.y + t.height / 2 }, points }
  }
  return {
    nodes: nodes.map((node) => {
      const { x, y, width, height } = laid.boxes.get(node.id)!
      return { ...node, position: { x, y }, width, height }
    }),
    routes,
    fits: view && fits(laid.bounds, view),
  }
}

/** Whether `bounds` fits on the canvas at its least zoom. */
export function fits(bounds: Box, view: LayoutView): boolean {
  return bounds.width * view.zoom <= view.width - 2 * view.margin && bounds.height * view.zoom <= view.height - 2 * view.margin
}

/** Whether the nodes, packed with their spacing, would cover less than the canvas at all. */
function mayFit(sizes: Map<string, Size>, view: LayoutView): boolean {
  if (sizes.size > MAX_WRAPPED_NODES) return false
  let area = 0
  for (const s of sizes.values()) area += (s.width + RANK_SEP) * (s.height + NODE_SEP)
  return area * view.zoom * view.zoom <= (view.width - 2 * view.margin) * (view.height - 2 * view.margin)
}

/**
 * The links dagre sees: acyclic, between known nodes, every parentless node hung off the inputs
 * node (so the graph is connected), and — for graphs with many long edges — only the links
 * joining adjacent ranks. Those always include each node's furthest reference, so dagre
 * reproduces the longest-path ranks and every dropped link still points right.
 */
export function layoutLinks(nodes: Pick<CanvasNode, 'id'>[], edges: Link[]): { links: Link[]; tightOnly: boolean; rank: Map<string, number> } {
  const { rank, links } = longestPathRanks(
    nodes.map((n) => n.id),
    edges,
    INPUTS_ID,
  )
  const span = (l: Link) => rank.get(l.target)! - rank.get(l.source)!
  const dummies = links.reduce((sum, l) => sum + span(l) - 1, 0)
  if (dummies <= MAX_DUMMY_NODES) return { links, tightOnly: dummies === 0, rank }
  return { links: links.filter((l) => span(l) === 1), tightOnly: true, rank }
}

/** Each edge's route, if the layout made one for it. */
export function routeOf(routes: Routes, source: string, target: string): Route | undefined {
  return routes[linkKey(source, target)]
}
