import TextField from '@mui/material/TextField'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'

/** Plain text that is not a template (names, descriptions, versions); clearing an optional one removes its key. */
export default function TextInput(p: FieldProps<string> & { multiline?: boolean }) {
  return (
    <TextField
      label={p.label}
      value={p.value ?? ''}
      required={p.required}
      placeholder={p.placeholder}
      multiline={p.multiline}
      minRows={p.multiline ? 2 : undefined}
      error={hasError(p.diagnostics)}
      helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} />}
      fullWidth
      onChange={(e) => p.onChange(e.target.value === '' && !p.required ? undefined : e.target.value)}
      slotProps={{ htmlInput: fieldAttrs(p.field), inputLabel: p.placeholder ? { shrink: true } : undefined }}
    />
  )
}
