//! The canvas's own buttons (top right): re-run the automatic layout, fit the graph in view.
import AccountTree from '@mui/icons-material/AccountTree'
import FitScreen from '@mui/icons-material/FitScreen'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Tooltip from '@mui/material/Tooltip'
import { Panel } from '@xyflow/react'

export default function CanvasToolbar({ onRelayout, onFit }: { onRelayout: () => void; onFit: () => void }) {
  return (
    <Panel position="top-right">
      <Paper variant="outlined" sx={{ display: 'flex', p: 0.25 }}>
        <Tooltip title="Re-layout">
          <IconButton size="small" aria-label="Re-layout" onClick={onRelayout}>
            <AccountTree fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Fit view">
          <IconButton size="small" aria-label="Fit view" onClick={onFit}>
            <FitScreen fontSize="small" />
          </IconButton>
        </Tooltip>
      </Paper>
    </Panel>
  )
}
