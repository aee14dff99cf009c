//! A tiny label on a node ("if", "each", "continues"), its full text in the tooltip.
import Box from '@mui/material/Box'

export default function NodeBadge({ label, title }: { label: string; title: string }) {
  return (
    <Box
      component="span"
      title={title}
      sx={{
        px: 0.5,
        borderRadius: 0.75,
        border: 1,
        borderColor: 'divider',
        color: 'text.secondary',
        fontSize: 10,
        lineHeight: '14px',
        flexShrink: 0,
      }}
    >
      {label}
    </Box>
  )
}
