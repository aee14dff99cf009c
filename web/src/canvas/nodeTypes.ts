//! React Flow's node and edge type maps, at module scope so React Flow never sees new objects.
import type { EdgeTypes, NodeTypes } from '@xyflow/react'
import FlowEdge from './FlowEdge'
import InputsNode from './InputsNode'
import OutputNode from './OutputNode'
import StepNode from './StepNode'

export const nodeTypes = { inputs: InputsNode, step: StepNode, output: OutputNode } satisfies NodeTypes
export const edgeTypes = { flow: FlowEdge } satisfies EdgeTypes
