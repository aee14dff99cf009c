//! The React Flow shapes the canvas draws: node data is a union on `kind`, one variant per node type.
import type { Edge, Node } from '@xyflow/react'
import type { Route } from './layout'
import type { EdgeKind, GraphNode } from '../api/types'

export type StepGraphNode = Extract<GraphNode, { kind: 'step' }>
export type InputsGraphNode = Extract<GraphNode, { kind: 'inputs' }>
export type OutputGraphNode = Extract<GraphNode, { kind: 'output' }>

/** Node data is the graph node itself, so `data.kind` narrows the variant. */
export type StepFlowNode = Node<StepGraphNode, 'step'>
export type InputsFlowNode = Node<InputsGraphNode, 'inputs'>
export type OutputFlowNode = Node<OutputGraphNode, 'output'>
export type CanvasNode = StepFlowNode | InputsFlowNode | OutputFlowNode

export interface FlowEdgeData extends Record<string, unknown> {
  kind: EdgeKind
  /** The referenced path (`search.output.results`, `inputs.query`, or a step id). */
  label: string
  /** Where in the target the reference sits (`inputs.query`, `condition`, `output.answer`). */
  field: string
  /** Branch edges always show their label; the others only on hover or selection. */
  alwaysShowLabel: boolean
  /** Where the layout routed it around the nodes (drawn as a bezier without one). */
  route?: Route
}

export type CanvasEdge = Edge<FlowEdgeData, 'flow'>

/** Grey used for the inputs and output nodes (the step colours are `Category::colour` in server/workflow/src/tool/spec.rs). */
export const IO_COLOR = '#E0E0E0'

/** A graph this small fits on screen; a minimap would only cover some of its nodes. */
export const MINIMAP_ABOVE = 12
/** The inputs/output nodes' colour bar: a palette grey that reads on light and dark themes. */
export const IO_BAR = 'grey.500'
