//! The run bar's switch for the canvas's cost and time overlay (remembered in this browser).
import FormControlLabel from '@mui/material/FormControlLabel'
import Switch from '@mui/material/Switch'
import { useCanvasStore } from '../canvas/useCanvasStore'

export default function CostOverlaySwitch() {
  const on = useCanvasStore((s) => s.overlay)
  const setOverlay = useCanvasStore((s) => s.setOverlay)
  return (
    <FormControlLabel
      control={<Switch size="small" checked={on} onChange={(e) => setOverlay(e.target.checked)} />}
      label="Cost & time"
      title="Show each step's duration and cost on the canvas, the run's critical path, and the run's totals"
      slotProps={{ typography: { variant: 'body2' } }}
      sx={{ mr: 0 }}
    />
  )
}
