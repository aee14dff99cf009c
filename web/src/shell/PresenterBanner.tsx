//! Presenter mode's banner: what the run is doing, large enough to read from the back of a room
//! ("Running · Embed the query", "Paused before · Rerank", "Waiting for input · Approve",
//! "Completed in 1.2 s").
import Box from '@mui/material/Box'
import { formatDuration, useElapsed } from '../hooks/useElapsed'
import { RUN_STATE_COLOR } from '../runbar/runStatus'
import { waitingStep } from '../state/runReducer'
import { useRunStore } from '../state/runStore'
import { stepName, useWorkflowStore } from '../state/workflowStore'

export default function PresenterBanner() {
  const status = useRunStore((s) => s.status)
  const startedAt = useRunStore((s) => s.startedAt)
  const durationMs = useRunStore((s) => s.durationMs)
  const error = useRunStore((s) => s.error)
  const paused = useRunStore((s) => s.paused?.stepId)
  const waiting = useRunStore((s) => (s.waiting ? waitingStep(s.waiting) : undefined))
  // A joined string, so the banner re-renders only when the set of active steps changes.
  const active = useRunStore((s) =>
    Object.entries(s.steps)
      .filter(([, step]) => step.status === 'running' || step.status === 'retrying')
      .map(([id]) => id)
      .join('\n'),
  )
  const graph = useWorkflowStore((s) => s.graph)
  const elapsed = useElapsed(startedAt, status === 'running', durationMs)
  const nameOf = (id: string) => stepName(graph, id) ?? id
  const time = elapsed !== undefined ? formatDuration(elapsed) : ''

  let text: string
  if (!status) text = graph ? `Ready · ${graph.name}` : 'Open a workflow'
  else if (status === 'running' && paused) text = `Paused before · ${nameOf(paused)}`
  else if (status === 'running') text = active ? `Running · ${active.split('\n').map(nameOf).join(', ')}` : 'Running'
  else if (status === 'completed') text = `Completed in ${time}`
  else if (status === 'failed') text = error ? `Failed · ${error}` : 'Failed'
  else if (status === 'waiting') text = waiting ? `Waiting for input · ${nameOf(waiting)}` : 'Waiting for input'
  else if (status === 'interrupted') text = 'Interrupted'
  else text = 'Cancelled'

  return (
    <Box
      data-testid="presenter-banner"
      aria-live="polite"
      sx={{
        display: 'flex',
        alignItems: 'baseline',
        gap: 3,
        px: 3,
        py: 1.5,
        borderBottom: 2,
        borderColor: 'divider',
        flexShrink: 0,
        fontSize: 30,
        fontWeight: 700,
        lineHeight: 1.2,
        color: status ? RUN_STATE_COLOR[status] : 'text.primary',
      }}
    >
      <Box component="span" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {text}
      </Box>
      {status === 'running' && (
        <Box component="span" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
          {time}
        </Box>
      )}
    </Box>
  )
}
