//! One past run in the Runs panel: a box to pick it for a comparison, and the button that opens
//! it — its status, when it ran, how long it took, what it cost, its inputs in one line, and
//! the run it was restarted from.
import Replay from '@mui/icons-material/Replay'
import Box from '@mui/material/Box'
import Checkbox from '@mui/material/Checkbox'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import { memo } from 'react'
import type { HistoryEntry } from '../api/types'
import { useApp } from '../app/AppContext'
import { formatDuration } from '../canvas/format'
import { monoFont } from '../theme'
import { costText } from '../usage/usage'
import { absoluteTime, relativeTime, shortRunId, statusColor, statusLabel } from './runList'

interface Props {
  run: HistoryEntry
  /** It is the run drawn on the canvas. */
  open: boolean
  picked: boolean
  /** When the run it was restarted from ran, if that run is listed too. */
  fromWhen?: number
  now: number
  /** Runs of every workflow are listed: say whose this is. */
  named?: boolean
}

function RunRow({ run, open, picked, fromWhen, now, named }: Props) {
  const app = useApp()
  const when = relativeTime(run.startedAt, now)
  const cost = costText(run.usage?.cost)
  const color = statusColor(run.status)
  const facts = [when, run.durationMs !== undefined ? formatDuration(run.durationMs) : undefined].filter(Boolean).join(' · ')
  return (
    <ListItem disablePadding data-testid="history-run" data-run-id={run.runId} data-status={run.status} sx={{ alignItems: 'flex-start' }}>
      <Checkbox
        size="small"
        checked={picked}
        onChange={(e) => app.history.pick(run.runId, e.target.checked)}
        slotProps={{ input: { 'aria-label': `Compare the run of ${absoluteTime(run.startedAt)}` } }}
        sx={{ mt: 0.5, ml: 0.5 }}
      />
      <ListItemButton
        selected={open}
        aria-current={open ? 'page' : undefined}
        onClick={() => void app.history.open(run.runId)}
        title={`Run ${run.runId}, ${absoluteTime(run.startedAt)}`}
        sx={{ display: 'block', py: 0.75, pl: 0.5, minWidth: 0 }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, fontSize: 13 }}>
          <Box
            component="span"
            aria-hidden
            sx={{ width: 8, height: 8, borderRadius: '50%', flexShrink: 0, bgcolor: color === 'default' ? 'text.disabled' : `${color}.main` }}
          />
          <Box component="span" sx={{ fontWeight: 600 }}>
            {statusLabel(run.status)}
          </Box>
          <Box component="span" sx={{ color: 'text.secondary', flex: 1, minWidth: 0, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {facts}
          </Box>
          {cost && (
            <Box component="span" title={cost.title} sx={{ fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}>
              {cost.text}
            </Box>
          )}
        </Box>
        {named && (
          <Box sx={{ fontSize: 12, fontWeight: 500, mt: 0.25, overflowWrap: 'anywhere' }} title={run.workflowId}>
            {run.workflow}
          </Box>
        )}
        {run.inputs && <Box sx={{ fontFamily: monoFont, fontSize: 11, color: 'text.secondary', overflowWrap: 'anywhere', mt: 0.25 }}>{run.inputs}</Box>}
        {run.from && (
          <Box data-testid="history-run-from" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontSize: 12, color: 'text.secondary', mt: 0.25 }}>
            <Replay sx={{ fontSize: 14 }} aria-hidden />
            <span>
              restarted from <b>{run.from.step}</b> of the run {fromWhen !== undefined ? `of ${relativeTime(fromWhen, now)}` : shortRunId(run.from.runId)}
            </span>
          </Box>
        )}
        {run.error && (
          <Box sx={{ fontSize: 12, color: 'error.main', mt: 0.25, overflowWrap: 'anywhere' }} title={run.error}>
            {run.error.length > 140 ? `${run.error.slice(0, 139)}…` : run.error}
          </Box>
        )}
      </ListItemButton>
    </ListItem>
  )
}

export default memo(RunRow)
