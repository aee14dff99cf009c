//! Where nodes go on the canvas while editing: the positions the document keeps, else the ones
//! the editor chose (automatic layout at the start, or where a node was added). A new node —
//! or a pasted group — goes where it was asked for (the pointer, a drop, beside its source) if
//! that is free, else to the nearest free spot: it never lands on another node or a note.
import type { GraphEdge, GraphNode, Note } from '../../api/types'
import type { CanvasNode } from '../../canvas/flowTypes'
import { boxesOverlap, unionBox, type Box } from '../../canvas/geometry'
import { nodeSize, type Size } from '../../canvas/layout'
import type { XY } from './model'

/** Space kept between a placed node and its neighbours. */
export const GAP = 24
/** Space between a node and one placed beside it. */
const GAP_X = 60
/** How many of the nearest boxes offer spots beside them. */
const NEAR = 16

export function sizeOf(node: GraphNode): Size {
  return nodeSize({ type: node.kind, data: node } as CanvasNode)
}

/** The boxes of the nodes that have a position, and of the notes. */
export function occupiedBoxes(nodes: GraphNode[], positions: Record<string, XY>, notes: Note[] = []): Box[] {
  const out: Box[] = []
  for (const node of nodes) {
    const at = positions[node.id]
    if (at) out.push({ ...at, ...sizeOf(node) })
  }
  for (const n of notes) out.push({ x: n.x, y: n.y, width: n.width ?? 220, height: n.height ?? 120 })
  return out
}

/**
 * The spot nearest `want` where a box of `size` overlaps none of `occupied` (with GAP around
 * it): `want` itself when free, else one beside or below a nearby box, else below everything.
 */
export function freeSpot(size: Size, want: XY, occupied: Box[]): XY {
  const free = (p: XY) => !occupied.some((o) => boxesOverlap({ ...p, ...size }, o, GAP))
  if (free(want)) return want
  const centre = (b: Box) => Math.hypot(b.x + b.width / 2 - want.x, b.y + b.height / 2 - want.y)
  const near = occupied
    .map((b) => ({ b, d: centre(b) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, NEAR)
  const xs = new Set([want.x])
  const ys = new Set([want.y])
  for (const { b } of near) {
    xs.add(b.x + b.width + GAP)
    xs.add(b.x - GAP - size.width)
    ys.add(b.y + b.height + GAP)
    ys.add(b.y - GAP - size.height)
  }
  const spots: XY[] = []
  for (const x of xs) for (const y of ys) spots.push({ x, y })
  spots.sort((a, b) => Math.hypot(a.x - want.x, a.y - want.y) - Math.hypot(b.x - want.x, b.y - want.y))
  for (const spot of spots) if (free(spot)) return spot
  return { x: want.x, y: Math.max(...occupied.map((o) => o.y + o.height)) + GAP }
}

/** A free spot for a box of `size` to the right of `anchor`, level with its top. */
export function besides(anchor: Box, size: Size, occupied: Box[]): XY {
  return freeSpot(size, { x: anchor.x + anchor.width + GAP_X, y: anchor.y }, occupied)
}

/**
 * Positions for nodes that have none: beside the first node they read from that has one, else
 * below everything (the output node: right of everything), in free space. Returns only the new
 * positions.
 */
export function placeMissing(nodes: GraphNode[], edges: GraphEdge[], known: Record<string, XY>, notes: Note[] = []): Record<string, XY> {
  const added: Record<string, XY> = {}
  const at = (id: string) => known[id] ?? added[id]
  const occupied = occupiedBoxes(nodes, known, notes)
  const byId = new Map(nodes.map((n) => [n.id, n]))
  for (const node of nodes) {
    if (at(node.id)) continue
    const size = sizeOf(node)
    const source = edges.find((e) => e.target === node.id && at(e.source) && byId.has(e.source))
    let spot: XY
    if (source) spot = besides({ ...at(source.source), ...sizeOf(byId.get(source.source)!) }, size, occupied)
    else if (occupied.length === 0) spot = { x: 0, y: 0 }
    else if (node.kind === 'output')
      spot = freeSpot(size, { x: Math.max(...occupied.map((o) => o.x + o.width)) + GAP_X, y: Math.min(...occupied.map((o) => o.y)) }, occupied)
    else spot = freeSpot(size, { x: Math.min(...occupied.map((o) => o.x)), y: Math.max(...occupied.map((o) => o.y + o.height)) + GAP }, occupied)
    added[node.id] = spot
    occupied.push({ ...spot, ...size })
  }
  return added
}

/** How far to move a group of boxes (pasted steps, laid out as copied) so it overlaps nothing. */
export function freeOffset(group: Box[], occupied: Box[]): XY {
  if (group.length === 0) return { x: 0, y: 0 }
  const bounds = unionBox(group)
  const spot = freeSpot({ width: bounds.width, height: bounds.height }, { x: bounds.x, y: bounds.y }, occupied)
  return { x: spot.x - bounds.x, y: spot.y - bounds.y }
}
