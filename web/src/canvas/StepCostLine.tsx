//! A step node's third line while the cost and time overlay is on: what the step's model calls
//! cost (`$0.0021`, `$0` for a local model; `—` when the model has no known price, the reason as
//! its tooltip) and the tokens they used. The duration is on the line above (StepTiming). A step
//! that reported no usage (no model calls, or a run joined by its snapshot, which carries only
//! the run's totals) keeps its usual line.
import Box from '@mui/material/Box'
import type { Usage } from '../api/types'
import { costText, usageLine } from '../usage/usage'
import { ellipsis, mono } from './textSx'

export default function StepCostLine({ usage }: { usage: Usage }) {
  const cost = costText(usage.cost)
  const tokens = usageLine({ ...usage, cost: undefined })
  return (
    <Box data-testid="step-cost" sx={{ ...ellipsis, ...mono, display: 'flex', gap: 0.75, color: 'text.secondary' }}>
      {cost && (
        <Box component="span" title={cost.title} sx={{ color: 'text.primary', fontWeight: 600 }}>
          {cost.text}
        </Box>
      )}
      {tokens && (
        <Box component="span" title="Tokens this step's model calls used" sx={ellipsis}>
          {tokens}
        </Box>
      )}
    </Box>
  )
}
