//! The automatic layout while editing: the same dagre layout the read-only canvas uses, so
//! entering edit mode moves nothing.
import type { GraphEdge, GraphNode } from '../../api/types'
import type { CanvasNode } from '../../canvas/flowTypes'
import { layoutNodes } from '../../canvas/layout'
import { graphToFlow } from '../../canvas/toFlow'
import { NO_ESTIMATE } from '../../plan/estimate'
import type { XY } from '../doc/model'

export function autoLayout(nodes: GraphNode[], edges: GraphEdge[]): Record<string, XY> {
  const flow = graphToFlow({ name: '', nodes, edges, layers: [], estimate: NO_ESTIMATE, runnable: false })
  const laid = layoutNodes<CanvasNode>(flow.nodes, flow.edges)
  return Object.fromEntries(laid.map((n) => [n.id, n.position]))
}
