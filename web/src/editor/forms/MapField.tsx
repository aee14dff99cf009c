import Add from '@mui/icons-material/Add'
import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import type { JsonValue } from '../../api/types'
import CommitField from './CommitField'
import { placeDiagnostics } from './diagnostics'
import FieldGroup from './FieldGroup'
import { fieldAttrs } from './fieldProps'
import { isObject, renameKey, uniqueName, withKey } from './objects'
import { emptyValue, valueSchema } from './schema'
import SchemaField, { type SchemaFieldProps } from './SchemaField'

/**
 * An object of free keys (`additionalProperties`): each entry's key is renamed in place, its
 * value edited by the value schema (templates for untyped values). Key order is kept.
 */
export default function MapField(p: SchemaFieldProps) {
  const obj: { [key: string]: JsonValue } = isObject(p.value) ? p.value : {}
  const keys = Object.keys(obj)
  const schema = valueSchema(p.schema)
  const fields = keys.map((k) => `${p.field}.${k}`)
  const placed = placeDiagnostics(p.diagnostics, fields)
  const set = (next: { [key: string]: JsonValue }) => p.onChange(Object.keys(next).length === 0 && !p.required ? undefined : next)
  return (
    <FieldGroup label={p.label} required={p.required} description={p.description} diagnostics={placed.rest}>
      {keys.map((key, i) => (
        <Box key={i} role="group" aria-label={`${p.label} entry ${key}`} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
          <Box sx={{ width: '35%', flexShrink: 0 }}>
            <CommitField
              label="Key"
              field={`${fields[i]}:key`}
              value={key}
              validate={(text) =>
                text === '' ? 'A key cannot be empty' : text !== key && Object.hasOwn(obj, text) ? `${p.label} already has a key "${text}"` : undefined
              }
              onCommit={(text) => {
                const next = renameKey(obj, key, text)
                if (!next) return `${p.label} already has a key "${text}"`
                set(next)
              }}
            />
          </Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <SchemaField
              label="Value"
              field={fields[i]}
              schema={schema}
              value={obj[key]}
              required
              diagnostics={placed.at(fields[i])}
              onChange={(v) => set(withKey(obj, key, v ?? ''))}
            />
          </Box>
          <IconButton size="small" aria-label={`Remove ${key} from ${p.label}`} onClick={() => set(withKey(obj, key, undefined))}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Box>
      ))}
      <Box>
        <Button
          startIcon={<Add />}
          onClick={() => set(withKey(obj, uniqueName('key', keys), emptyValue(schema)))}
          {...(keys.length === 0 ? fieldAttrs(p.field) : {})}
        >
          Add {p.label} entry
        </Button>
      </Box>
    </FieldGroup>
  )
}
