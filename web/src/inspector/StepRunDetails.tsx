import Box from '@mui/material/Box'
import LinearProgress from '@mui/material/LinearProgress'
import Typography from '@mui/material/Typography'
import type { CompensationState, StepStatus } from '../api/types'
import { formatDuration } from '../hooks/useElapsed'
import { useStepDetail } from '../hooks/useStepDetail'
import { useEditSession } from '../editor/editSession'
import { reusedFrom } from '../state/replay'
import { stepUsageOf } from '../state/runReducer'
import { useRunStore } from '../state/runStore'
import { usageLine } from '../usage/usage'
import AgentView from './AgentView'
import JsonTree from './JsonTree'
import { routeOf } from './modelSteps'
import OutputView from './OutputView'
import ProseView from './ProseView'
import RouteView from './RouteView'
import ScoresView from './ScoresView'
import Section from './Section'
import StreamingText from './StreamingText'

const STATUS_TEXT: Record<StepStatus, string> = {
  pending: 'Waiting',
  running: 'Running',
  retrying: 'Retrying',
  completed: 'Completed',
  skipped: 'Skipped',
  failed: 'Failed',
  cancelled: 'Cancelled',
  waiting: 'Waiting for a person',
}

const COMPENSATION_TEXT: Record<CompensationState, string> = {
  compensating: 'being undone by its compensation',
  compensated: 'undone by its compensation',
  compensation_failed: 'its compensation failed',
}

/**
 * What the last run did with this step: status, timing, what its model calls used and cost,
 * error or skip reason, the text it is writing while it runs, then its output's prose (an
 * answer, as Markdown), scores (an evaluator's, as a table), route (a router's choice) or tool
 * calls (an agent's, as a timeline), inputs and output.
 */
export default function StepRunDetails({ stepId }: { stepId: string }) {
  const runId = useRunStore((s) => s.runId)
  const step = useRunStore((s) => s.steps[stepId])
  const inline = useRunStore((s) => s.stepOutputs[stepId])
  const paused = useRunStore((s) => s.paused?.stepId === stepId)
  const { detail, error, loading } = useStepDetail(runId, stepId, step?.status, paused)
  const stale = useEditSession((s) => s.stale[stepId] === true)
  const reused = useRunStore((s) => reusedFrom(s.steps[stepId], s.fromRun))
  const used = usageLine(useRunStore((s) => stepUsageOf(s, stepId)))
  if (!runId || !step) return null

  const output = detail?.output ?? inline
  const reason = detail?.reason ?? step.reason
  const failure = detail?.error ?? step.error
  const duration = detail?.durationMs ?? step.durationMs
  const facts = [
    paused ? 'Paused before this step: Next runs it' : (STATUS_TEXT[step.status] ?? step.status),
    step.compensation ? COMPENSATION_TEXT[step.compensation] : undefined,
    ...(reused
      ? [`${reused}, not run again`]
      : [
          duration !== undefined ? formatDuration(duration) : undefined,
          step.attempt ? `attempt ${step.attempt}` : undefined,
          step.backend ? `via ${step.backend}` : undefined,
          used || undefined,
        ]),
  ].filter(Boolean)

  return (
    <Box data-testid="step-run">
      <Section title="Last run">
        <Typography variant="body2" data-testid="step-run-facts">
          {facts.join(' · ')}
        </Typography>
        {stale && (
          <Typography variant="body2" role="note" data-testid="step-stale" sx={{ color: 'warning.main' }}>
            Stale: this step or one it reads from was edited after this run. Run again to refresh.
          </Typography>
        )}
        {step.summary && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {step.summary}
          </Typography>
        )}
        {failure && (step.status === 'failed' || step.status === 'retrying' || step.compensation === 'compensation_failed') && (
          <Typography variant="body2" sx={{ color: 'error.main', whiteSpace: 'pre-wrap', mt: 0.5 }}>
            {failure}
          </Typography>
        )}
        {reason && step.status === 'skipped' && (
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            Skipped: {reason}
          </Typography>
        )}
        {loading && <LinearProgress sx={{ mt: 1 }} />}
        {error && (
          <Typography variant="body2" sx={{ color: 'error.main' }}>
            Could not load the step’s details: {error}
          </Typography>
        )}
      </Section>
      {step.text !== undefined && step.status === 'running' && <StreamingText text={step.text} />}
      {output !== undefined && step.status === 'completed' && <ProseView value={output} />}
      {output !== undefined && step.status === 'completed' && (routeOf(output) ? <RouteView value={output} /> : <ScoresView value={output} />)}
      {output !== undefined && step.status === 'completed' && <AgentView value={output} />}
      {detail?.inputs !== undefined && (
        <Section title="Resolved inputs">
          <JsonTree value={detail.inputs} openDepth={1} />
        </Section>
      )}
      {output !== undefined && <OutputView title="Output" value={output} fileName={`${stepId}-output`} refPath={`${stepId}.output`} />}
    </Box>
  )
}
