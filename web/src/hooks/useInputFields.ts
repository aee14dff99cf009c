//! The open workflow's declared inputs, from the graph's inputs node.
import type { GraphView, InputField } from '../api/types'
import { useWorkflowStore } from '../state/workflowStore'

const NONE: InputField[] = []

/** The inputs `graph` declares (none without a graph). */
export function inputFieldsOf(graph: GraphView | undefined): InputField[] {
  const node = graph?.nodes.find((n) => n.kind === 'inputs')
  return node?.kind === 'inputs' ? node.inputs : NONE
}

export function useInputFields(): InputField[] {
  return useWorkflowStore((s) => inputFieldsOf(s.graph))
}
