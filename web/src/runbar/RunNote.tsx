//! One line beside the run status: which step a step-through run waits before, which step a run
//! waits at for a person's answer, or why the run ended when the server said (a cancel, the
//! pause idle limit, a failure).
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useApp } from '../app/AppContext'
import { waitingStep } from '../state/runReducer'
import { useRunStore } from '../state/runStore'
import { stepName, useWorkflowStore } from '../state/workflowStore'

export default function RunNote() {
  const interrupted = useRunStore((s) => (s.status === 'interrupted' ? s.runId : undefined))
  if (interrupted) return <InterruptedNote runId={interrupted} />
  return <StatusNote />
}

/** A run an earlier server was running when it stopped: it goes on from its journal. */
function InterruptedNote({ runId }: { runId: string }) {
  const app = useApp()
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Typography data-testid="run-note" role="status" variant="body2" noWrap sx={{ color: 'warning.main', fontWeight: 600 }}>
        Interrupted: completed steps are kept
      </Typography>
      <Button size="small" variant="outlined" onClick={() => void app.runs.continueRun(runId)}>
        Continue
      </Button>
    </Stack>
  )
}

function StatusNote() {
  const pausedId = useRunStore((s) => s.paused?.stepId)
  const waitingId = useRunStore((s) => (s.status === 'waiting' && s.waiting ? waitingStep(s.waiting) : undefined))
  const ended = useRunStore((s) => s.status === 'cancelled' || s.status === 'failed')
  const failed = useRunStore((s) => s.status === 'failed')
  const error = useRunStore((s) => s.error)
  const stepId = pausedId ?? waitingId
  const name = useWorkflowStore((s) => stepName(s.graph, stepId) ?? stepId)
  const text = pausedId ? `Paused before ${name}` : waitingId ? `${name} waits for an answer: see the inspector` : ended ? error : undefined
  if (!text) return null
  return (
    <Typography
      data-testid="run-note"
      role="status"
      variant="body2"
      title={text}
      noWrap
      sx={{ maxWidth: 320, fontWeight: stepId ? 600 : undefined, color: stepId ? 'warning.main' : failed ? 'error.main' : 'text.secondary' }}
    >
      {text}
    </Typography>
  )
}
