import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'
import type { Diagnostic } from '../../api/types'
import FieldMessages from './FieldMessages'

interface Props {
  label: string
  required?: boolean
  description?: string
  diagnostics: readonly Diagnostic[]
  children: ReactNode
}

/** A labelled group of fields (an array's items, a map's entries) with its own messages. */
export default function FieldGroup({ label, required, description, diagnostics, children }: Props) {
  return (
    <Box role="group" aria-label={label} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1, pt: 0.5, pb: 1 }}>
      <Typography variant="caption" component="div" sx={{ color: 'text.secondary', fontWeight: 600 }}>
        {label}
        {required ? ' *' : ''}
      </Typography>
      <Typography variant="caption" component="div" sx={{ mb: 0.5 }}>
        <FieldMessages diagnostics={diagnostics} description={description} />
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>{children}</Box>
    </Box>
  )
}
