//! Title row of the inputs and output nodes.
import Box from '@mui/material/Box'
import type { IconComponent } from './icons'

export default function IoHeader({ icon: Icon, label }: { icon: IconComponent; label: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, fontWeight: 600, fontSize: 13, minHeight: 24 }}>
      <Icon sx={{ fontSize: 18, color: 'text.secondary' }} />
      {label}
    </Box>
  )
}
