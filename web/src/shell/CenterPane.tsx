import Box from '@mui/material/Box'
import CircularProgress from '@mui/material/CircularProgress'
import Typography from '@mui/material/Typography'
import Canvas from '../canvas/Canvas'
import { useWorkflowStore } from '../state/workflowStore'
import DiagnosticsList from './DiagnosticsList'
import EmptyState from './EmptyState'

/** Diagnostics above the canvas; empty, loading and error states in its place when there is no graph. */
export default function CenterPane() {
  const hasGraph = useWorkflowStore((s) => s.graph !== undefined)
  const hasWorkflow = useWorkflowStore((s) => s.current !== undefined)
  const loading = useWorkflowStore((s) => s.loading)
  const loadError = useWorkflowStore((s) => s.loadError)

  let body
  if (loadError) {
    body = <EmptyState title="Could not open the workflow" detail={loadError} tone="error" />
  } else if (hasGraph) {
    body = <Canvas />
  } else if (loading) {
    body = <EmptyState title="Opening…" icon={<CircularProgress size={28} />} />
  } else if (hasWorkflow) {
    body = (
      <EmptyState
        title="This workflow cannot be drawn"
        detail="Its structure could not be read. The errors above say where; fix them and open it again."
        tone="error"
      />
    )
  } else {
    body = (
      <EmptyState
        title="No workflow open"
        detail="Pick one from the library, open a .vai-workflow.json file, paste JSON, or drop a file anywhere on this page."
      />
    )
  }

  return (
    <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', position: 'relative' }}>
      <DiagnosticsList />
      <Box component="main" aria-label="Canvas" aria-busy={loading} sx={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {body}
        {loading && hasGraph && (
          <Typography variant="caption" sx={{ position: 'absolute', top: 8, left: 8, color: 'text.secondary' }}>
            Opening…
          </Typography>
        )}
      </Box>
    </Box>
  )
}
