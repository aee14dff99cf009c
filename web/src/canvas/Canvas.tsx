// Placeholder until the canvas engineer's implementation lands (they own web/src/canvas/).
import Box from '@mui/material/Box'
import { useWorkflowStore } from '../state/workflowStore'

export default function Canvas() {
  const count = useWorkflowStore((s) => s.graph?.nodes.length ?? 0)
  return <Box sx={{ p: 2, color: 'text.secondary' }}>{count} nodes</Box>
}
