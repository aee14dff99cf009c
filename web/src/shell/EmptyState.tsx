import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'

interface Props {
  title: string
  detail?: string
  icon?: ReactNode
  tone?: 'normal' | 'error'
}

export default function EmptyState({ title, detail, icon, tone = 'normal' }: Props) {
  return (
    <Box role="status" sx={{ height: '100%', display: 'grid', placeItems: 'center', p: 3, textAlign: 'center' }}>
      <Box sx={{ maxWidth: 440 }}>
        {icon}
        <Typography variant="h6" sx={{ color: tone === 'error' ? 'error.main' : 'text.primary' }}>
          {title}
        </Typography>
        {detail && (
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
            {detail}
          </Typography>
        )}
      </Box>
    </Box>
  )
}
