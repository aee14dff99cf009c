import Typography from '@mui/material/Typography'
import { formatDuration, useElapsed } from '../hooks/useElapsed'
import { useRunStore } from '../state/runStore'

const LABEL = { running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' } as const
const COLOR = { running: 'info.main', completed: 'success.main', failed: 'error.main', cancelled: 'warning.main' } as const

/** "Ready" / "Running" / "Completed" / "Failed" / "Cancelled", and the elapsed time. */
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
        sx={{ fontWeight: 600, color: status ? COLOR[status] : 'text.secondary', minWidth: 72 }}
      >
        {status ? LABEL[status] : 'Ready'}
      </Typography>
      <Typography data-testid="run-elapsed" variant="body2" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums', minWidth: 56 }}>
        {elapsed !== undefined ? formatDuration(elapsed) : ''}
      </Typography>
    </>
  )
}
