import Box from '@mui/material/Box'
import type { Diagnostic } from '../../api/types'

const COLOR = { error: 'error.main', warning: 'warning.main', info: 'info.main' } as const

interface Props {
  diagnostics: readonly Diagnostic[]
  description?: string
  /** What the form itself found wrong with the value, shown first (several joined by ` · `). */
  note?: string | readonly string[]
}

/**
 * A field's helper text: the form's own note, the diagnostics (each in its severity's colour)
 * that do not say again what the note says, then the field's description.
 */
export default function FieldMessages({ diagnostics, description, note }: Props) {
  const notes = (typeof note === 'string' ? [note] : (note ?? [])).filter((n) => n !== '')
  // The validator often finds what the form already flags ("min 11 is more than max 10"): once is enough.
  const shown = diagnostics.filter((d) => !notes.some((n) => d.message.includes(n)))
  if (shown.length === 0 && !description && notes.length === 0) return null
  return (
    <Box component="span" sx={{ display: 'block' }}>
      {notes.length > 0 && (
        <Box component="span" sx={{ display: 'block', color: 'error.main' }}>
          {notes.join(' · ')}
        </Box>
      )}
      {shown.map((d, i) => (
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
