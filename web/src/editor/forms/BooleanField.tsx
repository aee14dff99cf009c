import RestartAlt from '@mui/icons-material/RestartAlt'
import Box from '@mui/material/Box'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import IconButton from '@mui/material/IconButton'
import Switch from '@mui/material/Switch'
import type { JsonValue } from '../../api/types'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'

interface Props extends FieldProps<boolean> {
  /** The value the engine uses when the key is absent. */
  fallback?: JsonValue
  /** Offer to remove a set value (default: when optional). */
  resettable?: boolean
}

/** A switch. Unset shows the default; an optional set value can be reset (its key removed). */
export default function BooleanField(p: Props) {
  const checked = p.value ?? p.fallback === true
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <FormControlLabel
          label={`${p.label}${p.required ? ' *' : ''}${p.value === undefined && p.fallback !== undefined ? ' (default)' : ''}`}
          control={<Switch size="small" checked={checked} onChange={(e) => p.onChange(e.target.checked)} slotProps={{ input: fieldAttrs(p.field) }} />}
          sx={{ mr: 0.5 }}
        />
        {p.value !== undefined && !p.required && p.resettable !== false && (
          <IconButton size="small" aria-label={`Reset ${p.label} to its default`} title="Reset to the default" onClick={() => p.onChange(undefined)}>
            <RestartAlt fontSize="small" />
          </IconButton>
        )}
      </Box>
      <FormHelperText component="div" sx={{ mt: 0, mx: 1.75 }}>
        <FieldMessages diagnostics={p.diagnostics} description={p.description} />
      </FormHelperText>
    </Box>
  )
}
