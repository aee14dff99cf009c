//! A step node's third line while two runs are compared: what changed in it since run A
//! (`limit 3 → 6 · 2 entered · 1 left`), the inspector's diff view in brief.
import Box from '@mui/material/Box'
import type { StepDiff } from '../api/types'
import { stepLine } from '../history/diffView'
import { ellipsis } from './textSx'

export default function StepDiffLine({ step }: { step: StepDiff }) {
  const line = stepLine(step)
  return (
    <Box data-testid="step-diff" title={line} sx={{ ...ellipsis, color: step.change === 'same' ? 'text.secondary' : 'info.main', fontWeight: 600 }}>
      {line}
    </Box>
  )
}
