//! A step node's third line: the error or skip reason when there is one, that it waits for a
//! person, the end of the text it is writing while it runs, else the summary of its main input.
import Box from '@mui/material/Box'
import { textTail } from './format'
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
  if (status === 'running' && state?.text) {
    // Right-to-left, so a line too narrow for the tail cuts its start and shows the newest
    // words; <bdi> keeps the text itself left-to-right.
    return (
      <Box data-testid="step-node-text" sx={{ ...ellipsis, direction: 'rtl', textAlign: 'left', fontStyle: 'italic', color: 'text.secondary' }}>
        <bdi>{textTail(state.text)}</bdi>
      </Box>
    )
  }
  return <Box sx={{ ...ellipsis, ...mono, color: 'text.secondary' }}>{summary ?? '\u00a0'}</Box>
}
