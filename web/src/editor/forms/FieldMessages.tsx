import Box from '@mui/material/Box'
import type { Diagnostic } from '../../api/types'

const COLOR = { error: 'error.main', warning: 'warning.main', info: 'info.main' } as const

/** A field's helper text: its diagnostics (each in its severity's colour), then its description. */
export default function FieldMessages({ diagnostics, description, note }: { diagnostics: readonly Diagnostic[]; description?: string; note?: string }) {
  if (diagnostics.length === 0 && !description && !note) return null
  return (
    <Box component="span" sx={{ display: 'block' }}>
      {note && (
        <Box component="span" sx={{ display: 'block', color: 'error.main' }}>
          {note}
        </Box>
      )}
      {diagnostics.map((d, i) => (
        <Box component="span" key={i} sx={{ display: 'block', color: COLOR[d.severity] }}>
          {d.message}
        </Box>
      ))}
      {description && (
        <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
          {description}
        </Box>
      )}
    </Box>
  )
}
