import Close from '@mui/icons-material/Close'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Typography from '@mui/material/Typography'
import { useWorkflowStore } from '../state/workflowStore'

/** A failed open while another workflow stays on screen: say so above it, dismissibly. */
export default function LoadErrorBanner({ message }: { message: string }) {
  const setLoadError = useWorkflowStore((s) => s.setLoadError)
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 0.5, bgcolor: 'action.selected', flexShrink: 0 }}>
      <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
        Could not open the workflow: {message}
      </Typography>
      <IconButton size="small" aria-label="Dismiss" onClick={() => setLoadError(undefined)}>
        <Close fontSize="small" />
      </IconButton>
    </Box>
  )
}
