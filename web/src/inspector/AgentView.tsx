//! An `agent` step's tool calls as a timeline (the Chat panel's), how many turns it took, and the
//! notice it carried (stopped at `maxIterations`, …), above the raw output.
import Alert from '@mui/material/Alert'
import Typography from '@mui/material/Typography'
import ToolCallTimeline from '../chat/ToolCallTimeline'
import { agentOf } from './modelSteps'
import Section from './Section'

export default function AgentView({ value }: { value: unknown }) {
  const run = agentOf(value)
  if (!run) return null
  const calls = run.calls.length
  return (
    <Section title="Tool calls">
      {run.notice && (
        <Alert severity="warning" data-testid="agent-notice" sx={{ mb: 1 }}>
          {run.notice}
        </Alert>
      )}
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {calls === 0 ? 'No tool called' : `${calls} tool call${calls === 1 ? '' : 's'}`}
        {run.iterations !== undefined ? ` in ${run.iterations} turn${run.iterations === 1 ? '' : 's'}` : ''}
      </Typography>
      <ToolCallTimeline calls={run.calls} withOutputs={false} />
    </Section>
  )
}
