//! The past run banner's own line: how the run ended and when, what it took and cost, where it
//! was restarted from, and how its workflow differs now — changed (each change listed),
//! unchanged, or no longer in the library (drawn from the definition the journal kept).
import History from '@mui/icons-material/History'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import type { HistoryRecord } from '../api/types'
import { useApp } from '../app/AppContext'
import { formatDuration } from '../canvas/format'
import { costText } from '../usage/usage'
import { useRunStore } from '../state/runStore'
import { lineSx, textSx } from './bannerSx'
import RestartMenu from './RestartMenu'
import { absoluteTime, relativeTime, shortRunId, statusLabel } from './runList'

export default function PastRunLine({ record, now }: { record: HistoryRecord; now: number }) {
  const app = useApp()
  const { run, changedSince } = record
  const cost = costText(run.usage?.cost)
  // The run's own time, as the run bar gives it (the entry's counts from its journal's first line
  // to its last).
  const took = useRunStore((s) => s.durationMs) ?? run.durationMs
  const facts = [statusLabel(run.status), took !== undefined ? `took ${formatDuration(took)}` : undefined, cost?.text].filter(Boolean)
  const gone = changedSince === undefined
  return (
    <>
      <Box sx={lineSx}>
        <History fontSize="small" sx={{ color: 'text.secondary' }} aria-hidden />
        <Typography variant="body2" sx={textSx} data-testid="past-run-line">
          <b>Past run</b> from{' '}
          <time dateTime={new Date(run.startedAt).toISOString()} title={absoluteTime(run.startedAt)}>
            {relativeTime(run.startedAt, now)}
          </time>{' '}
          · {facts.join(' · ')}
          {run.from && (
            <>
              {' '}
              · restarted from <b>{run.from.step}</b> of run {shortRunId(run.from.runId)}
            </>
          )}
        </Typography>
        <RestartMenu />
        <Button size="small" onClick={() => void app.history.leave()}>
          {gone ? 'Close' : 'Back to the workflow'}
        </Button>
      </Box>
      <Box data-testid="past-run-changes" sx={{ fontSize: 12, color: 'text.secondary', mt: 0.25 }}>
        {gone ? (
          <span>Its workflow is no longer in the library: this is the definition the run kept.</span>
        ) : changedSince.length === 0 ? (
          <span>The workflow has not changed since.</span>
        ) : (
          <>
            <Box component="span" sx={{ color: 'warning.main', fontWeight: 600 }}>
              The workflow has changed since:
            </Box>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {changedSince.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </Box>
          </>
        )}
      </Box>
    </>
  )
}
