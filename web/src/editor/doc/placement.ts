//! Where nodes go on the canvas while editing: the positions the document keeps, else the ones
//! the editor chose (automatic layout at the start, or where a node was added). A new node goes
//! where it was dropped, or beside its source, moved down until it overlaps nothing.
import type { GraphEdge, GraphNode } from '../../api/types'
import { STEP_SIZE } from '../../canvas/layout'
import type { XY } from './model'

const GAP_X = 60
const GAP_Y = 28

function overlaps(p: XY, occupied: XY[]): boolean {
  return occupied.some((o) => Math.abs(o.x - p.x) < STEP_SIZE.width && Math.abs(o.y - p.y) < STEP_SIZE.height + GAP_Y / 2)
}

/** The first free spot at `start`, going down one row at a time. */
export function freeSpot(start: XY, occupied: XY[]): XY {
  const p = { ...start }
  for (let i = 0; i < 500 && overlaps(p, occupied); i++) p.y += STEP_SIZE.height + GAP_Y
  return p
}

/** A free spot to the right of `anchor`. */
export function besides(anchor: XY, occupied: XY[]): XY {
  return freeSpot({ x: anchor.x + STEP_SIZE.width + GAP_X, y: anchor.y }, occupied)
}

/**
 * Positions for nodes that have none: beside the first node they read from that has one, else
 * below everything. Returns only the new positions.
 */
export function placeMissing(nodes: GraphNode[], edges: GraphEdge[], known: Record<string, XY>): Record<string, XY> {
  const added: Record<string, XY> = {}
  const at = (id: string) => known[id] ?? added[id]
  const occupied = () => [...Object.values(known), ...Object.values(added)]
  for (const node of nodes) {
    if (at(node.id)) continue
    const source = edges.find((e) => e.target === node.id && at(e.source))
    if (source) {
      added[node.id] = besides(at(source.source), occupied())
      continue
    }
    const all = occupied()
    const bottom = all.length > 0 ? Math.max(...all.map((p) => p.y)) + STEP_SIZE.height + GAP_Y : 0
    const left = all.length > 0 ? Math.min(...all.map((p) => p.x)) : 0
    added[node.id] = node.kind === 'output' && all.length > 0 ? { x: Math.max(...all.map((p) => p.x)) + STEP_SIZE.width + GAP_X, y: 0 } : { x: left, y: bottom }
  }
  return added
}
