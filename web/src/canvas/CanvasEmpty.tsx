//! What the canvas shows before a workflow is open (or while one loads).
import AccountTree from '@mui/icons-material/AccountTree'
import Box from '@mui/material/Box'
import { useWorkflowStore } from '../state/workflowStore'

export default function CanvasEmpty() {
  const loading = useWorkflowStore((s) => s.loading)
  return (
    <Box
      data-testid="canvas-empty"
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        color: 'text.secondary',
        textAlign: 'center',
        p: 3,
      }}
    >
      <AccountTree sx={{ fontSize: 48, opacity: 0.4 }} />
      {loading ? 'Loading workflow…' : 'Open a workflow from the library, or drop a .vai-workflow.json file here.'}
    </Box>
  )
}
