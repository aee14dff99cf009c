//! Presenter mode's inspector: the selected node's (or the workflow's) inspector in a wide dialog,
//! drawn larger. Opened by Enter or a double-click on a node or the top bar's inspector button;
//! Escape closes it.
import Close from '@mui/icons-material/Close'
import Box from '@mui/material/Box'
import Dialog from '@mui/material/Dialog'
import DialogTitle from '@mui/material/DialogTitle'
import IconButton from '@mui/material/IconButton'
import InspectorPanel from '../inspector/InspectorPanel'
import { stepName, useWorkflowStore } from '../state/workflowStore'
import { usePresenterStore } from './presenter'

/** The inspector's text, buttons and tables alike, larger (CSS zoom keeps its layout intact). */
const ZOOM = 1.4

export default function InspectorOverlay() {
  const open = usePresenterStore((s) => s.inspecting)
  const inspect = usePresenterStore((s) => s.inspect)
  const title = useWorkflowStore((s) => stepName(s.graph, s.selected) ?? s.graph?.name)
  return (
    <Dialog
      open={open}
      onClose={() => inspect(false)}
      fullWidth
      maxWidth="lg"
      aria-labelledby="inspector-overlay-title"
      slotProps={{ paper: { sx: { height: '85vh' } } }}
    >
      <DialogTitle id="inspector-overlay-title" sx={{ display: 'flex', alignItems: 'center', fontSize: 26, fontWeight: 700, pr: 1 }}>
        <Box component="span" sx={{ flex: 1, minWidth: 0 }}>
          {title ?? 'Inspector'}
        </Box>
        <IconButton aria-label="Close inspector" onClick={() => inspect(false)}>
          <Close />
        </IconButton>
      </DialogTitle>
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', zoom: ZOOM }}>
        <InspectorPanel fill />
      </Box>
    </Dialog>
  )
}
