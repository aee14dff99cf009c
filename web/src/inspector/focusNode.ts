//! Moving the selection to a node (from a template reference or a diagnostic).
import { useWorkflowStore } from '../state/workflowStore'

export function focusNode(id: string): void {
  useWorkflowStore.getState().select(id)
}
