import Add from '@mui/icons-material/Add'
import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import { useState } from 'react'
import FieldGroup from './FieldGroup'
import type { FieldProps } from './fieldProps'
import { removeAt, replaceAt, sameJson } from './objects'
import { expectsOf, expectsRows, FIELD_TYPES, type ExpectsRow, type FieldType } from './orchestration'

/**
 * A `yield` step's `expects` as rows: field name, type, required, and the allowed values. The
 * rows are kept while they are typed (a row without a name is not written yet).
 */
export default function ExpectsEditor(p: FieldProps) {
  const [draft, setDraft] = useState(() => ({ rows: expectsRows(p.value), of: p.value }))
  // An outside change (undo, the step's JSON) replaces the rows; our own echo leaves them alone.
  if (!sameJson(draft.of, p.value)) setDraft({ rows: expectsRows(p.value), of: p.value })
  const write = (rows: ExpectsRow[]) => {
    const next = expectsOf(rows, p.value)
    const emit = !sameJson(next, p.value)
    setDraft({ rows, of: emit ? next : p.value })
    if (emit) p.onChange(next)
  }
  const edit = (i: number, change: Partial<ExpectsRow>) => write(replaceAt(draft.rows, i, { ...draft.rows[i], ...change }))
  return (
    <FieldGroup label={p.label} required={p.required} description={p.description} diagnostics={p.diagnostics}>
      {draft.rows.map((row, i) => (
        <Box
          key={i}
          role="group"
          aria-label={`Answer field ${i + 1}`}
          sx={{ display: 'grid', gridTemplateColumns: '1fr 7rem auto', gap: 0.5, alignItems: 'center' }}
        >
          <TextField size="small" label="Field name" value={row.name} onChange={(e) => edit(i, { name: e.target.value })} />
          <TextField select size="small" label="Type" value={row.type} onChange={(e) => edit(i, { type: e.target.value as FieldType })}>
            {FIELD_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
          <IconButton size="small" aria-label={`Remove answer field ${row.name || i + 1}`} onClick={() => write(removeAt(draft.rows, i))}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
          <TextField
            size="small"
            label="Allowed values"
            placeholder="comma-separated; empty for any"
            value={row.choices}
            onChange={(e) => edit(i, { choices: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <FormControlLabel
            label="Required"
            control={<Checkbox size="small" checked={row.required} onChange={(e) => edit(i, { required: e.target.checked })} />}
            sx={{ gridColumn: 'span 2', m: 0 }}
          />
        </Box>
      ))}
      <Box>
        <Button
          size="small"
          startIcon={<Add />}
          onClick={() => setDraft({ ...draft, rows: [...draft.rows, { name: '', type: 'string', required: false, choices: '', extra: {} }] })}
        >
          Add answer field
        </Button>
      </Box>
    </FieldGroup>
  )
}
