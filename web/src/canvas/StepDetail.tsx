//! A step node's third line: the error or skip reason when there is one, that it waits for a
//! person, else the summary of its main input.
import Box from '@mui/material/Box'
import { ellipsis, mono } from './textSx'
import type { StepRun } from './useStepRun'

export default function StepDetail({ run, summary }: { run: StepRun; summary?: string }) {
  const { status, state } = run
  if (status === 'failed' && state?.error) {
    return <Box sx={{ ...ellipsis, color: 'error.main' }}>{state.error}</Box>
  }
  if (status === 'skipped' && state?.reason) {
    return <Box sx={{ ...ellipsis, fontStyle: 'italic', color: 'text.secondary' }}>{state.reason}</Box>
  }
  if (status === 'waiting') {
    return <Box sx={{ ...ellipsis, color: 'warning.main', fontWeight: 600 }}>Waiting for a person</Box>
  }
  return <Box sx={{ ...ellipsis, ...mono, color: 'text.secondary' }}>{summary ?? '\u00a0'}</Box>
}
