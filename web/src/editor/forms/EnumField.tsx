import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import type { HTMLAttributes } from 'react'
import type { JsonValue } from '../../api/types'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import { sameJson } from './objects'

interface Props extends FieldProps {
  options: readonly JsonValue[]
}

const UNSET = ''

function show(v: JsonValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v)
}

/** One of the declared values; an optional field can go back to unset (its default). */
export default function EnumField(p: Props) {
  const index = p.value === undefined ? -1 : p.options.findIndex((o) => sameJson(o, p.value))
  return (
    <TextField
      select
      label={p.label}
      required={p.required}
      value={index < 0 ? UNSET : String(index)}
      error={hasError(p.diagnostics)}
      helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} />}
      fullWidth
      onChange={(e) => p.onChange(e.target.value === UNSET ? undefined : p.options[Number(e.target.value)])}
      slotProps={{
        select: { displayEmpty: true, SelectDisplayProps: fieldAttrs(p.field) as HTMLAttributes<HTMLDivElement> },
        inputLabel: { shrink: true },
      }}
    >
      {!p.required && <MenuItem value={UNSET}>{p.placeholder ? `(${p.placeholder})` : '(unset)'}</MenuItem>}
      {p.options.map((o, i) => (
        <MenuItem key={i} value={String(i)}>
          {show(o)}
        </MenuItem>
      ))}
    </TextField>
  )
}
