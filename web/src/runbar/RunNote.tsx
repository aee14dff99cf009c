//! One line beside the run status: which step a step-through run waits before, or why the run
//! ended when the server said (a cancel, the pause idle limit, a failure).
import Typography from '@mui/material/Typography'
import { useRunStore } from '../state/runStore'
import { stepName, useWorkflowStore } from '../state/workflowStore'

export default function RunNote() {
  const pausedId = useRunStore((s) => s.paused?.stepId)
  const ended = useRunStore((s) => s.status === 'cancelled' || s.status === 'failed')
  const failed = useRunStore((s) => s.status === 'failed')
  const error = useRunStore((s) => s.error)
  const name = useWorkflowStore((s) => stepName(s.graph, pausedId) ?? pausedId)
  const text = pausedId ? `Paused before ${name}` : ended ? error : undefined
  if (!text) return null
  return (
    <Typography
      data-testid="run-note"
      role="status"
      variant="body2"
      title={text}
      noWrap
      sx={{ maxWidth: 320, fontWeight: pausedId ? 600 : undefined, color: pausedId ? 'warning.main' : failed ? 'error.main' : 'text.secondary' }}
    >
      {text}
    </Typography>
  )
}
