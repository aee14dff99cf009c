//! The open workflow's declared inputs, from the graph's inputs node.
import type { InputField } from '../api/types'
import { useWorkflowStore } from '../state/workflowStore'

const NONE: InputField[] = []

export function useInputFields(): InputField[] {
  return useWorkflowStore((s) => {
    const node = s.graph?.nodes.find((n) => n.kind === 'inputs')
    return node?.kind === 'inputs' ? node.inputs : NONE
  })
}
