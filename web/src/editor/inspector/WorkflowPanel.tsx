//! Nothing (or the inputs/output node) selected while editing: the workflow as a whole and its
//! problems, each of which selects its step.
import Box from '@mui/material/Box'
import DiagnosticsList from '../../shell/DiagnosticsList'
import WorkflowInspector from '../../inspector/WorkflowInspector'
import { useWorkflowStore } from '../../state/workflowStore'

export default function WorkflowPanel() {
  const graph = useWorkflowStore((s) => s.graph)
  return (
    <Box>
      <DiagnosticsList />
      <WorkflowInspector graph={graph} />
    </Box>
  )
}
