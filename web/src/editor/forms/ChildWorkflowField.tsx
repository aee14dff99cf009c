import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import type { HTMLAttributes } from 'react'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import type { ChildWorkflow } from './orchestration'

interface Props extends FieldProps {
  choices: readonly ChildWorkflow[]
}

const UNSET = ''

/** A `workflow` step's child: one of the library's workflows (a name written by hand is kept). */
export default function ChildWorkflowField(p: Props) {
  const value = typeof p.value === 'string' ? p.value : UNSET
  const known = value === UNSET || p.choices.some((c) => c.value === value)
  return (
    <TextField
      select
      label={p.label}
      required={p.required}
      value={value}
      error={hasError(p.diagnostics)}
      helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} />}
      fullWidth
      onChange={(e) => p.onChange(e.target.value === UNSET ? undefined : e.target.value)}
      slotProps={{
        select: { displayEmpty: true, SelectDisplayProps: fieldAttrs(p.field) as HTMLAttributes<HTMLDivElement> },
        inputLabel: { shrink: true },
      }}
    >
      <MenuItem value={UNSET}>(choose a workflow)</MenuItem>
      {!known && <MenuItem value={value}>{value}</MenuItem>}
      {p.choices.map((c) => (
        <MenuItem key={c.value} value={c.value}>
          {c.label}
        </MenuItem>
      ))}
    </TextField>
  )
}
