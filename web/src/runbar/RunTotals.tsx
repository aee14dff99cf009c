//! The run's totals while the cost and time overlay is on: LLM tokens in and out, embedding and
//! rerank tokens, and what it cost (`—` when nothing was priced, the reason as the tooltip).
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useCanvasStore } from '../canvas/useCanvasStore'
import { useRunStore } from '../state/runStore'
import { usageParts } from '../usage/usage'

export default function RunTotals() {
  const on = useCanvasStore((s) => s.overlay)
  const usage = useRunStore((s) => (on ? s.usage : undefined))
  const parts = usageParts(usage)
  if (parts.length === 0) return null
  return (
    <Typography
      variant="body2"
      component="div"
      data-testid="run-totals"
      aria-label="Run totals"
      sx={{ display: 'flex', gap: 1, color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}
    >
      {parts.map((p) => (
        <Box component="span" key={p.label} title={p.title} sx={p.label === 'cost' ? { color: 'text.primary', fontWeight: 600 } : undefined}>
          {p.label === 'cost' ? p.text : `${p.label} ${p.text}`}
        </Box>
      ))}
    </Typography>
  )
}
