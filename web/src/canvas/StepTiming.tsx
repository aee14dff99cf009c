//! A step's time once it has one ("123 ms"), or its retry attempt while retrying.
import Box from '@mui/material/Box'
import { formatDuration } from './format'
import type { StepRun } from './useStepRun'

export default function StepTiming({ run }: { run: StepRun }) {
  const { status, state } = run
  if (status === 'retrying' && state?.attempt) {
    return (
      <Box component="span" sx={{ color: 'warning.main', flexShrink: 0 }}>
        retry {state.attempt}
      </Box>
    )
  }
  if ((status === 'completed' || status === 'failed') && state?.durationMs !== undefined) {
    return (
      <Box component="span" data-testid="step-time" sx={{ flexShrink: 0 }}>
        {formatDuration(state.durationMs)}
      </Box>
    )
  }
  return null
}
