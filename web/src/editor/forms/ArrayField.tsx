import Add from '@mui/icons-material/Add'
import ArrowDownward from '@mui/icons-material/ArrowDownward'
import ArrowUpward from '@mui/icons-material/ArrowUpward'
import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import type { JsonValue } from '../../api/types'
import { placeDiagnostics } from './diagnostics'
import FieldGroup from './FieldGroup'
import { fieldAttrs } from './fieldProps'
import { moveItem, removeAt, replaceAt } from './objects'
import { emptyValue } from './schema'
import SchemaField, { type SchemaFieldProps } from './SchemaField'

/**
 * A list whose items are each edited by the item schema: add, remove, move up and down. An
 * optional list emptied loses its key.
 */
export default function ArrayField(p: SchemaFieldProps) {
  const items = Array.isArray(p.value) ? p.value : []
  const itemSchema = p.schema.items ?? {}
  const fields = items.map((_, i) => `${p.field}[${i}]`)
  const placed = placeDiagnostics(p.diagnostics, fields)
  const set = (next: JsonValue[]) => p.onChange(next.length === 0 && !p.required ? undefined : next)
  const name = (i: number) => `${p.label} item ${i + 1}`
  return (
    <FieldGroup label={p.label} required={p.required} description={p.description} diagnostics={placed.rest}>
      {items.map((item, i) => (
        <Box key={i} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.25 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <SchemaField
              label={name(i)}
              field={fields[i]}
              schema={itemSchema}
              value={item}
              required
              diagnostics={placed.at(fields[i])}
              onChange={(v) => set(v === undefined ? removeAt(items, i) : replaceAt(items, i, v))}
            />
          </Box>
          <IconButton size="small" aria-label={`Move ${name(i)} up`} disabled={i === 0} onClick={() => set(moveItem(items, i, i - 1))}>
            <ArrowUpward fontSize="small" />
          </IconButton>
          <IconButton size="small" aria-label={`Move ${name(i)} down`} disabled={i === items.length - 1} onClick={() => set(moveItem(items, i, i + 1))}>
            <ArrowDownward fontSize="small" />
          </IconButton>
          <IconButton size="small" aria-label={`Remove ${name(i)}`} onClick={() => set(removeAt(items, i))}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Box>
      ))}
      <Box>
        <Button startIcon={<Add />} onClick={() => set([...items, emptyValue(itemSchema)])} {...(items.length === 0 ? fieldAttrs(p.field) : {})}>
          Add {p.label} item
        </Button>
      </Box>
    </FieldGroup>
  )
}
