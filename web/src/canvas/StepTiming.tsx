//! A step's time once it has one ("123 ms"), its retry attempt while retrying, or "reused" for a
//! step a "Run this step" run replayed from an earlier run instead of running it.
import Box from '@mui/material/Box'
import { reusedFrom } from '../state/replay'
import { useRunStore } from '../state/runStore'
import { formatDuration } from './format'
import type { StepRun } from './useStepRun'

export default function StepTiming({ run }: { run: StepRun }) {
  const { status, state } = run
  const reused = useRunStore((s) => reusedFrom(state, s.fromRun))
  if (status === 'retrying' && state?.attempt) {
    return (
      <Box component="span" sx={{ color: 'warning.main', flexShrink: 0 }}>
        retry {state.attempt}
      </Box>
    )
  }
  if (status === 'completed' && reused) {
    return (
      <Box component="span" data-testid="step-reused" title={reused} sx={{ flexShrink: 0, fontStyle: 'italic' }}>
        reused
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
