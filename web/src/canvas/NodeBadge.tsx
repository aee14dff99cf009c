//! A tiny label on a node ("if", "each", "continues", "undone"), its full text in the tooltip.
import Box from '@mui/material/Box'

export default function NodeBadge({
  label,
  title,
  tone,
  testId,
}: {
  label: string
  title: string
  tone?: 'warning' | 'error' | 'info' | 'success'
  testId?: string
}) {
  return (
    <Box
      component="span"
      title={title}
      data-testid={testId}
      sx={{
        px: 0.5,
        borderRadius: 0.75,
        border: 1,
        borderColor: tone ? `${tone}.main` : 'divider',
        color: tone ? `${tone}.main` : 'text.secondary',
        fontWeight: tone ? 600 : undefined,
        fontSize: 10,
        lineHeight: '14px',
        flexShrink: 0,
      }}
    >
      {label}
    </Box>
  )
}
