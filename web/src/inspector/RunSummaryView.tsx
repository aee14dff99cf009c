import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { formatUsage } from '../canvas/format'
import { formatDuration } from '../hooks/useElapsed'
import { useRunOutput } from '../hooks/useRunOutput'
import { isFinal, RUN_STATE_LABEL } from '../runbar/runStatus'
import { useRunStore } from '../state/runStore'
import OutputView from './OutputView'
import ProseView from './ProseView'
import SaveTestCase from './SaveTestCase'
import Section from './Section'

/**
 * The last run of the workflow as a whole: status, duration, usage, error, and the final
 * output — its prose (the answer, as Markdown) first, then the whole as JSON.
 */
export default function RunSummaryView() {
  const status = useRunStore((s) => s.status)
  const durationMs = useRunStore((s) => s.durationMs)
  const error = useRunStore((s) => s.error)
  const usage = useRunStore((s) => s.usage)
  const output = useRunStore((s) => s.output)
  const outputBytes = useRunStore((s) => s.outputBytes)
  const runId = useRunStore((s) => s.runId)
  const large = output === undefined && outputBytes !== undefined && status !== undefined && status !== 'running'
  const fetched = useRunOutput(runId, large)
  if (!runId || !status) return null
  const shown = output !== undefined ? output : large ? fetched.output : undefined
  const usageText = usage ? formatUsage(usage) : ''
  return (
    <Box>
      <Section title="Last run">
        <Typography variant="body2">
          {status === 'running' ? 'Running…' : RUN_STATE_LABEL[status]}
          {durationMs !== undefined && isFinal(status) ? ` in ${formatDuration(durationMs)}` : ''}
        </Typography>
        {usageText && (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {usageText}
          </Typography>
        )}
        {error && (
          <Typography variant="body2" sx={{ color: 'error.main', whiteSpace: 'pre-wrap' }}>
            {error}
          </Typography>
        )}
        {status === 'completed' && <SaveTestCase runId={runId} />}
      </Section>
      {shown !== undefined && <ProseView value={shown} />}
      {shown !== undefined && <OutputView title="Final output" value={shown} fileName="workflow-output" />}
      {large && fetched.output === undefined && (
        <Section title="Final output">
          <Typography variant="body2" sx={{ color: fetched.error ? 'error.main' : 'text.secondary' }}>
            {fetched.loading ? `Loading the output (${Math.round((outputBytes ?? 0) / 1024)} KB)…` : (fetched.error ?? 'The run ended without an output.')}
          </Typography>
        </Section>
      )}
    </Box>
  )
}
