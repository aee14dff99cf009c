//! Title row of the inputs and output nodes.
import Box from '@mui/material/Box'
import type { IconComponent } from './icons'
import { title } from './textSx'

export default function IoHeader({ icon: Icon, label }: { icon: IconComponent; label: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, ...title, minHeight: 24 }}>
      <Icon sx={{ fontSize: 18, color: 'text.secondary' }} />
      {label}
    </Box>
  )
}
