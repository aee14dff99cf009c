import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

/** A titled block of the inspector. */
export default function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <Typography component="h3" variant="overline" sx={{ lineHeight: 1.6, color: 'text.secondary', flex: 1 }}>
          {title}
        </Typography>
        {actions}
      </Box>
      {children}
    </Box>
  )
}
