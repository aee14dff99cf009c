//! One field of a waiting run's answer form: a select of the choices for an `enum`, a switch for
//! a boolean, else a text or number field; required ones marked, the problem under it.
import Box from '@mui/material/Box'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import MenuItem from '@mui/material/MenuItem'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import type { FormValue } from '../runbar/coerce'
import { choiceLabel, choiceValue, sentence, type AnswerField as Field } from './answerForm'

interface Props {
  field: Field
  value: FormValue | undefined
  error?: string
  disabled?: boolean
  onChange(value: FormValue): void
}

export default function AnswerField({ field, value, error, disabled, onChange }: Props) {
  const helper = error ? sentence(error) : field.description
  if (field.kind === 'boolean' && !field.choices) {
    return (
      <Box>
        <FormControlLabel
          control={<Switch checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />}
          label={field.required ? `${field.name} *` : field.name}
        />
        {helper && <FormHelperText error={Boolean(error)}>{helper}</FormHelperText>}
      </Box>
    )
  }
  const text = typeof value === 'string' ? value : ''
  const common = {
    label: field.name,
    required: field.required,
    value: text,
    disabled,
    error: Boolean(error),
    helperText: helper,
    fullWidth: true,
    size: 'small' as const,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  }
  if (field.choices) {
    return (
      <TextField select {...common}>
        {!field.required && (
          <MenuItem value="">
            <em>None</em>
          </MenuItem>
        )}
        {field.choices.map((choice) => (
          <MenuItem key={choiceValue(choice)} value={choiceValue(choice)}>
            {choiceLabel(choice)}
          </MenuItem>
        ))}
      </TextField>
    )
  }
  const number = field.kind === 'number' || field.kind === 'integer'
  return (
    <TextField
      {...common}
      type={number ? 'number' : 'text'}
      slotProps={{ htmlInput: number ? { min: field.minimum, max: field.maximum, step: field.kind === 'integer' ? 1 : 'any' } : { spellCheck: true } }}
    />
  )
}
