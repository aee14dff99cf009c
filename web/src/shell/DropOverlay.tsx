import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'

export default function DropOverlay() {
  return (
    <Box
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (t) => t.zIndex.modal,
        display: 'grid',
        placeItems: 'center',
        bgcolor: 'rgba(0,0,0,0.45)',
        border: 3,
        borderStyle: 'dashed',
        borderColor: 'primary.main',
        pointerEvents: 'none',
      }}
    >
      <Typography variant="h5">Drop a workflow file to open it</Typography>
    </Box>
  )
}
