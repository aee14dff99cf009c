import Box from '@mui/material/Box'
import Canvas from '../canvas/Canvas'
import { useEditSession } from '../editor/editSession'
import HistoryBanner from '../history/HistoryBanner'
import { useWorkflowStore } from '../state/workflowStore'
import DiagnosticsList from './DiagnosticsList'
import EmptyState from './EmptyState'
import LoadErrorBanner from './LoadErrorBanner'

/**
 * The past run banner (history) and diagnostics above the canvas. The canvas renders the `<main aria-label="Canvas">` landmark
 * itself (and its own empty and loading states); when a workflow failed to open or cannot be
 * drawn, an explanation takes its place under the same landmark, so there is always exactly one.
 */
export default function CenterPane() {
  const hasGraph = useWorkflowStore((s) => s.graph !== undefined)
  const hasWorkflow = useWorkflowStore((s) => s.current !== undefined)
  const loading = useWorkflowStore((s) => s.loading)
  const loadError = useWorkflowStore((s) => s.loadError)
  const editing = useEditSession((s) => s.active)

  let explanation
  if (editing) {
    // The builder draws any document it edits and lists problems in its inspector.
  } else if (loadError && !hasGraph) {
    explanation = <EmptyState title="Could not open the workflow" detail={loadError} tone="error" />
  } else if (hasWorkflow && !hasGraph && !loading) {
    explanation = (
      <EmptyState
        title="This workflow cannot be drawn"
        detail="Its structure could not be read. The errors above say where; fix them and open it again."
        tone="error"
      />
    )
  }

  return (
    <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', position: 'relative' }}>
      {loadError && hasGraph && <LoadErrorBanner message={loadError} />}
      <HistoryBanner />
      {!editing && <DiagnosticsList />}
      <Box sx={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {explanation ? (
          <Box component="main" aria-label="Canvas" sx={{ height: '100%' }}>
            {explanation}
          </Box>
        ) : (
          <Canvas />
        )}
      </Box>
    </Box>
  )
}
