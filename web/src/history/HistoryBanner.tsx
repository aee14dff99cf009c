//! Above the canvas while a past run is open: that it is a past run, when it ran, how it ended
//! and whether its workflow has changed since (or is gone); a run restarted from it, as it goes;
//! and a comparison of two runs. Restart and the way back to the workflow are here too, so they
//! stay at hand while editing.
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useApp } from '../app/AppContext'
import { RUN_STATE_LABEL } from '../runbar/runStatus'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import ComparisonSummary from './ComparisonSummary'
import { pastKey, useHistoryStore } from './historyStore'
import { lineSx, textSx } from './bannerSx'
import PastRunLine from './PastRunLine'
import RestartMenu from './RestartMenu'
import { relativeTime } from './runList'
import { useNow } from './useNow'

export default function HistoryBanner() {
  const app = useApp()
  const past = useHistoryStore((s) => s.past)
  const viewing = useWorkflowStore((s) => past !== undefined && s.current?.key === pastKey(past.run.runId))
  const shown = useRunStore((s) => s.runId)
  const status = useRunStore((s) => s.status)
  const restarted = useHistoryStore((s) => s.restarted)
  const restartError = useHistoryStore((s) => s.restartError)
  const comparison = useHistoryStore((s) => s.comparison)
  const now = useNow()
  if (!past || !viewing) return null
  const ran = relativeTime(past.run.startedAt, now)

  let line
  if (shown === past.run.runId) line = <PastRunLine record={past} now={now} />
  else if (restarted && shown === restarted.runId)
    line = (
      <Box sx={lineSx}>
        <Typography variant="body2" sx={textSx} data-testid="restarted-line">
          <b>Restarted</b> from <b>{restarted.from.step}</b> of the past run of {ran}
          {status && ` · ${RUN_STATE_LABEL[status]}`}
        </Typography>
        <Button size="small" variant="outlined" disabled={status === 'running'} onClick={() => void app.history.compare(restarted.from.runId, restarted.runId)}>
          Compare with the original
        </Button>
        <RestartMenu />
        <Button size="small" onClick={() => void app.history.open(past.run.runId)}>
          Back to the past run
        </Button>
      </Box>
    )
  else
    line = (
      <Box sx={lineSx}>
        <Typography variant="body2" sx={textSx}>
          A new run of the workflow as the past run of {ran} ran it
          {status && ` · ${RUN_STATE_LABEL[status]}`}
        </Typography>
        <Button size="small" onClick={() => void app.history.open(past.run.runId)}>
          Back to the past run
        </Button>
      </Box>
    )

  return (
    <Box component="section" aria-label="Past run" data-testid="history-banner" sx={bannerSx}>
      {line}
      {restartError && (
        <Typography variant="body2" role="alert" sx={{ color: 'error.main', mt: 0.5 }}>
          Could not restart: {restartError}
        </Typography>
      )}
      {comparison && (comparison.b === shown || !comparison.diff) && <ComparisonSummary comparison={comparison} now={now} />}
    </Box>
  )
}

const bannerSx = {
  px: 1.5,
  py: 0.75,
  borderBottom: 1,
  borderColor: 'divider',
  bgcolor: 'action.hover',
  flexShrink: 0,
  maxHeight: '40%',
  overflow: 'auto',
} as const
