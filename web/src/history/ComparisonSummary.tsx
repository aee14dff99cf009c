//! Two runs compared, in brief: which is A and which is B (drawn), the time and cost deltas, the
//! run inputs and workflow changes between them, and the steps that differ — each a button that
//! selects it, so the inspector shows it side by side.
import CompareArrows from '@mui/icons-material/CompareArrows'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import LinearProgress from '@mui/material/LinearProgress'
import Typography from '@mui/material/Typography'
import type { RunDiff, RunSide } from '../api/types'
import { useApp } from '../app/AppContext'
import { formatDuration } from '../canvas/format'
import { formatUsd, formatUsdDelta } from '../usage/usage'
import { changeCounts, differingSteps, durationDelta, fieldLine, stepChange } from './diffView'
import { lineSx, textSx } from './bannerSx'
import type { Comparison } from './historyStore'
import { absoluteTime, relativeTime, statusLabel } from './runList'

function When({ side, now }: { side: RunSide; now: number }) {
  return (
    <time dateTime={new Date(side.startedAt).toISOString()} title={`${side.runId}, ${absoluteTime(side.startedAt)}`}>
      {relativeTime(side.startedAt, now)}
    </time>
  )
}

function totals({ a, b }: RunDiff): string[] {
  const out: string[] = []
  if (a.status !== b.status) out.push(`Status ${statusLabel(a.status)} → ${statusLabel(b.status)}`)
  if (a.durationMs !== undefined && b.durationMs !== undefined)
    out.push(`Time ${formatDuration(a.durationMs)} → ${formatDuration(b.durationMs)} (${durationDelta(a.durationMs, b.durationMs)})`)
  if (a.costUsd !== undefined && b.costUsd !== undefined)
    out.push(`Cost ${formatUsd(a.costUsd)} → ${formatUsd(b.costUsd)} (${formatUsdDelta(a.costUsd, b.costUsd)})`)
  return out
}

export default function ComparisonSummary({ comparison, now }: { comparison: Comparison; now: number }) {
  const app = useApp()
  const { diff, error, loading } = comparison
  const select = (id: string) => app.stores.workflow.getState().select(id)
  return (
    <Box data-testid="comparison" sx={{ mt: 0.75, pt: 0.75, borderTop: 1, borderColor: 'divider' }}>
      <Box sx={lineSx}>
        <CompareArrows fontSize="small" sx={{ color: 'info.main' }} aria-hidden />
        <Typography variant="body2" sx={textSx}>
          {diff ? (
            <>
              <b>Comparing</b> run A from <When side={diff.a} now={now} /> with run B from <When side={diff.b} now={now} /> (drawn)
            </>
          ) : (
            <b>Comparing two runs…</b>
          )}
        </Typography>
        <Button size="small" onClick={() => app.history.stopComparing()}>
          Stop comparing
        </Button>
      </Box>
      {loading && <LinearProgress aria-label="Comparing the runs" sx={{ mt: 0.5 }} />}
      {error && (
        <Typography variant="body2" role="alert" sx={{ color: 'error.main', mt: 0.5 }}>
          Cannot compare these runs: {error}
        </Typography>
      )}
      {diff && <DiffFacts diff={diff} onSelect={select} />}
    </Box>
  )
}

function DiffFacts({ diff, onSelect }: { diff: RunDiff; onSelect: (id: string) => void }) {
  const counts = changeCounts(diff)
  const differing = differingSteps(diff)
  const rows: [string, string][] = [
    ['Totals', totals(diff).join(' · ') || 'No time or cost recorded'],
    ['Inputs', diff.inputs.length > 0 ? diff.inputs.map((c) => fieldLine(c, 40)).join(' · ') : 'the same'],
    ['Workflow', diff.workflowChanges.length > 0 ? diff.workflowChanges.join('; ') : 'the same version'],
  ]
  return (
    <Box sx={{ mt: 0.5, fontSize: 12 }}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1, rowGap: 0.25 }}>
        {rows.map(([key, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ color: 'text.secondary' }}>
              {key}
            </Box>
            <Box component="dd" data-testid={`comparison-${key.toLowerCase()}`} sx={{ m: 0, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>
              {value}
            </Box>
          </Box>
        ))}
        <Box component="dt" sx={{ color: 'text.secondary', alignSelf: 'center' }}>
          Steps
        </Box>
        <Box component="dd" data-testid="comparison-steps" sx={{ m: 0, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
          {differing.map((s) => {
            const change = stepChange(s)
            // A removed step is not drawn (B's workflow lacks it): nothing to select.
            return (
              <Chip
                key={s.id}
                size="small"
                variant="outlined"
                color={change === 'added' ? 'success' : 'info'}
                label={`${s.name} · ${change}`}
                onClick={change === 'removed' ? undefined : () => onSelect(s.id)}
                title={change === 'removed' ? 'Only in run A’s workflow' : 'Show it side by side in the inspector'}
              />
            )
          })}
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {differing.length === 0 ? 'every step the same' : counts.same > 0 ? `${counts.same} unchanged` : ''}
          </Box>
        </Box>
      </Box>
    </Box>
  )
}
