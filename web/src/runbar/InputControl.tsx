import FormControlLabel from '@mui/material/FormControlLabel'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import type { InputField } from '../api/types'
import { monoFont } from '../theme'
import { fieldKind, type FormValue } from './coerce'

interface Props {
  field: InputField
  value: FormValue | undefined
  error?: string
  disabled?: boolean
  onChange(value: FormValue): void
}

/** One workflow input, labelled with its name (required ones marked). */
export default function InputControl({ field, value, error, disabled, onChange }: Props) {
  const kind = fieldKind(field.type)
  const hint = [field.type, field.description].filter(Boolean).join(' — ')
  if (kind === 'boolean') {
    return (
      <Tooltip title={hint}>
        <FormControlLabel
          control={<Switch size="small" checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />}
          label={field.required ? `${field.name} *` : field.name}
          sx={{ mr: 1, whiteSpace: 'nowrap' }}
        />
      </Tooltip>
    )
  }
  return (
    <TextField
      label={field.name}
      required={field.required}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error}
      title={hint}
      placeholder={kind === 'json' ? (field.type === 'array' ? '[ … ]' : '{ … }') : kind === 'number' ? '0' : undefined}
      slotProps={{
        htmlInput: {
          inputMode: kind === 'number' ? 'decimal' : undefined,
          spellCheck: false,
          style: kind === 'json' ? { fontFamily: monoFont } : undefined,
        },
      }}
      sx={{ width: kind === 'text' || kind === 'json' ? 220 : 110, flexShrink: 0 }}
    />
  )
}
