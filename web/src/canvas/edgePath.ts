//! The path an edge is drawn along: its laid-out route while both its nodes are where the
//! layout put them, else React Flow's bezier between the handles (a node dragged away, or an
//! edge the layout did not route).
import { getBezierPath, type Position } from '@xyflow/react'
import { flatten, halfway, piecesPath, routePieces } from './geometry'
import type { Route } from './layout'

/** How far past a node's side a handle may put the edge's end (the editor's handles are larger). */
const HANDLE_REACH = 16

export interface EdgeEnds {
  sourceX: number
  sourceY: number
  targetX: number
  targetY: number
  sourcePosition: Position
  targetPosition: Position
}

/** Whether the edge's ends are where `route` was made for: its nodes have not moved. */
export function followsRoute(route: Route, ends: EdgeEnds): boolean {
  const out = ends.sourceX - route.from.x
  const into = route.to.x - ends.targetX
  return (
    Math.abs(ends.sourceY - route.from.y) < 1 && Math.abs(ends.targetY - route.to.y) < 1 && out > -1 && out <= HANDLE_REACH && into > -1 && into <= HANDLE_REACH
  )
}

/** `[path, labelX, labelY]`, as React Flow's path helpers return them. */
export function edgePath(ends: EdgeEnds, route?: Route): [string, number, number] {
  if (!route || !followsRoute(route, ends)) {
    const [path, labelX, labelY] = getBezierPath(ends)
    return [path, labelX, labelY]
  }
  const pieces = routePieces({ x: ends.sourceX, y: ends.sourceY }, route.points, { x: ends.targetX, y: ends.targetY })
  const label = halfway(flatten(pieces, 8))
  return [piecesPath(pieces), label.x, label.y]
}
