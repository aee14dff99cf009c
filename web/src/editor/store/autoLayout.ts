//! The automatic layout while editing: the layout the read-only canvas uses, for the same canvas
//! view, so entering edit mode moves nothing. Its edge routes stay drawn while they still hold:
//! both nodes of an edge where the layout put them, and no node moved or added onto the route.
import type { GraphEdge, GraphNode } from '../../api/types'
import type { CanvasNode } from '../../canvas/flowTypes'
import { boxesOverlap, flatten, lineHitsBox, routePieces, unionBox, type Box } from '../../canvas/geometry'
import { layoutNodes, linkKey, type LayoutView, type Route, type Routes } from '../../canvas/layout'
import { graphToFlow } from '../../canvas/toFlow'
import { NO_ESTIMATE } from '../../plan/estimate'
import type { XY } from '../doc/model'
import { sizeOf } from '../doc/placement'

/** The last automatic layout: where it put each node, and the routes it made between them. */
export interface EditorLayout {
  boxes: Record<string, Box>
  routes: Routes
  /** Whether it fits the view it was made for (undefined without one). */
  fits?: boolean
}

export function autoLayout(nodes: GraphNode[], edges: GraphEdge[], view?: LayoutView): EditorLayout {
  const flow = graphToFlow({ name: '', nodes, edges, layers: [], estimate: NO_ESTIMATE, runnable: false })
  const laid = layoutNodes<CanvasNode>(flow.nodes, flow.edges, view)
  return {
    boxes: Object.fromEntries(laid.nodes.map((n) => [n.id, { ...n.position, width: n.width!, height: n.height! }])),
    routes: laid.routes,
    fits: laid.fits,
  }
}

export function positionsOfLayout(layout: EditorLayout): Record<string, XY> {
  return Object.fromEntries(Object.entries(layout.boxes).map(([id, b]) => [id, { x: b.x, y: b.y }]))
}

/** The layout with renamed steps under their new ids. */
export function renameLayout(layout: EditorLayout, renames: Record<string, string>): EditorLayout {
  const rename = (id: string) => renames[id] ?? id
  const boxes: Record<string, Box> = {}
  for (const [id, box] of Object.entries(layout.boxes)) boxes[rename(id)] = box
  const routes: Routes = {}
  for (const [key, route] of Object.entries(layout.routes)) {
    const [source, target] = key.split('\u0000')
    routes[linkKey(rename(source), rename(target))] = route
  }
  return { boxes, routes }
}

/**
 * The routes that still hold for nodes at `positions`: a route is dropped when one of its nodes
 * is not where the layout put it (or not at its size), or when a node that moved — the only
 * nodes that can be in its way — covers it. Returns `before` when the same routes hold.
 */
export function liveRoutes(layout: EditorLayout, nodes: GraphNode[], positions: Record<string, XY>, before?: Routes): Routes {
  const moved = new Set<string>()
  const obstacles: Box[] = []
  for (const node of nodes) {
    const at = positions[node.id]
    const laid = layout.boxes[node.id]
    const size = sizeOf(node)
    if (laid && at && laid.x === at.x && laid.y === at.y && laid.width === size.width && laid.height === size.height) continue
    moved.add(node.id)
    if (at) obstacles.push({ ...at, ...size })
  }
  const out: Routes = {}
  for (const [key, route] of Object.entries(layout.routes)) {
    const [source, target] = key.split('\u0000')
    if (moved.has(source) || moved.has(target) || !positions[source] || !positions[target]) continue
    if (obstacles.length > 0 && blocked(route, obstacles)) continue
    out[key] = route
  }
  if (before && sameRoutes(out, before)) return before
  return out
}

/** Each route's drawn line and the box around it, worked out once (routes are not changed). */
const lines = new WeakMap<Route, { line: XY[]; around: Box }>()

function blocked(route: Route, obstacles: Box[]): boolean {
  let known = lines.get(route)
  if (!known) {
    const line = flatten(routePieces(route.from, route.points, route.to), 8)
    known = { line, around: unionBox(line.map((p) => ({ ...p, width: 0, height: 0 }))) }
    lines.set(route, known)
  }
  const { line, around } = known
  return obstacles.some((b) => boxesOverlap(b, around) && lineHitsBox(line, b))
}

function sameRoutes(a: Routes, b: Routes): boolean {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k])
}
