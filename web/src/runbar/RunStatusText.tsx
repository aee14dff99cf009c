import Typography from '@mui/material/Typography'
import { formatDuration, useElapsed } from '../hooks/useElapsed'
import { useRunStore } from '../state/runStore'
import { RUN_STATE_COLOR, RUN_STATE_LABEL } from './runStatus'

/** "Ready" / "Running" / "Completed" / "Failed" / "Cancelled" / "Waiting for input" / "Interrupted", and the elapsed time. */
export default function RunStatusText() {
  const status = useRunStore((s) => s.status)
  const startedAt = useRunStore((s) => s.startedAt)
  const durationMs = useRunStore((s) => s.durationMs)
  const running = status === 'running'
  const elapsed = useElapsed(startedAt, running, durationMs)
  return (
    <>
      <Typography
        data-testid="run-status"
        role="status"
        variant="body2"
        sx={{ fontWeight: 600, color: status ? RUN_STATE_COLOR[status] : 'text.secondary', minWidth: 72 }}
      >
        {status ? RUN_STATE_LABEL[status] : 'Ready'}
      </Typography>
      <Typography data-testid="run-elapsed" variant="body2" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums', minWidth: 56 }}>
        {elapsed !== undefined ? formatDuration(elapsed) : ''}
      </Typography>
    </>
  )
}
