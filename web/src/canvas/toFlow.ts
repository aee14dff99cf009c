//! Converts the server's GraphView into React Flow nodes and edges. Pure: positions are left
//! at the origin for `layout.ts`, and run status is not involved (nodes read it themselves).
import { MarkerType, Position, type EdgeMarker } from '@xyflow/react'
import type { CSSProperties } from 'react'
import type { EdgeKind, GraphEdge, GraphNode, GraphView } from '../api/types'
import type { CanvasEdge, CanvasNode } from './flowTypes'
import { routeOf, type Routes } from './layout'

export interface Flow {
  nodes: CanvasNode[]
  edges: CanvasEdge[]
}

interface EdgeLook {
  stroke: string
  strokeWidth: number
  strokeDasharray?: string
}

/** How each edge kind is drawn: branches and routes stand out, `dependsOn` recedes, data edges are neutral. */
export const EDGE_LOOKS: Record<EdgeKind, EdgeLook> = {
  then: { stroke: '#66BB6A', strokeWidth: 2 },
  else: { stroke: '#FF8A65', strokeWidth: 2, strokeDasharray: '6 4' },
  route: { stroke: '#7E57C2', strokeWidth: 2 },
  depends_on: { stroke: '#9E9E9E', strokeWidth: 1.5, strokeDasharray: '2 4' },
  reference: { stroke: '#B0BEC5', strokeWidth: 1.5 },
  input: { stroke: '#8D99A6', strokeWidth: 1.5 },
  output: { stroke: '#8D99A6', strokeWidth: 1.5 },
}

export function graphToFlow(graph: GraphView): Flow {
  return { nodes: graph.nodes.map(toNode), edges: graph.edges.map(toEdge) }
}

function toNode(node: GraphNode): CanvasNode {
  const common = {
    id: node.id,
    position: { x: 0, y: 0 },
    sourcePosition: Position.Right,
    targetPosition: Position.Left,
  }
  switch (node.kind) {
    case 'inputs':
      return { ...common, type: 'inputs', data: node, deletable: false }
    case 'step':
      return { ...common, type: 'step', data: node, deletable: false }
    case 'output':
      return { ...common, type: 'output', data: node, deletable: false }
  }
}

/** Edges that say which way a run goes: always labelled, so the branches can be told apart. */
export function isBranch(kind: EdgeKind): boolean {
  return kind === 'then' || kind === 'else' || kind === 'route'
}

/** The text an edge shows: the branch name, a router's route id, or "referenced path → target field". */
export function edgeLabel(edge: Pick<GraphEdge, 'kind' | 'label' | 'field'>): string {
  if (edge.kind === 'then' || edge.kind === 'else') return edge.kind
  if (edge.kind === 'route') return edge.label
  return edge.field ? `${edge.label} → ${edge.field}` : edge.label
}

export function toEdge(edge: GraphEdge): CanvasEdge {
  const look = EDGE_LOOKS[edge.kind]
  const style: CSSProperties = { ...look }
  const markerEnd: EdgeMarker = {
    type: MarkerType.ArrowClosed,
    color: look.stroke,
    width: 14,
    height: 14,
  }
  return {
    id: edge.id,
    type: 'flow',
    source: edge.source,
    target: edge.target,
    // Named by the step ids, whatever React Flow's own ids of its nodes (the builder keeps a
    // renamed step's node under its first id).
    ariaLabel: `Edge from ${edge.source} to ${edge.target}`,
    style,
    markerEnd,
    deletable: false,
    data: {
      kind: edge.kind,
      label: edge.label,
      field: edge.field,
      alwaysShowLabel: isBranch(edge.kind),
    },
  }
}

/** `edges` with the routes the layout made for them (an edge without one keeps none). */
export function withRoutes(edges: CanvasEdge[], routes: Routes): CanvasEdge[] {
  return edges.map((edge) => {
    const route = routeOf(routes, edge.source, edge.target)
    return route === edge.data?.route ? edge : { ...edge, data: { ...edge.data!, route } }
  })
}
