import Add from '@mui/icons-material/Add'
import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { JsonValue, Workflow } from '../../api/types'
import Section from '../../inspector/Section'
import BooleanField from './BooleanField'
import CommitField from './CommitField'
import { placeDiagnostics, type Placed } from './diagnostics'
import FieldMessages from './FieldMessages'
import JsonField from './JsonField'
import NumberField from './NumberField'
import { renameKey, uniqueName, withKey } from './objects'
import TextInput from './TextInput'
import type { WorkflowSettingsProps } from './types'
import { convert, kindOf, VALUE_KINDS, type ValueKind } from './values'

interface Props {
  workflow: Workflow
  placed: Placed
  onChange: WorkflowSettingsProps['onChange']
}

/** `defaults`: keys readable as `{{ defaults.<key> }}`, each value kept in its JSON type. */
export default function DefaultsEditor({ workflow, placed, onChange }: Props) {
  const defaults: { [key: string]: JsonValue } = workflow.defaults ?? {}
  const keys = Object.keys(defaults)
  const rows = placeDiagnostics(
    placed.at('defaults'),
    keys.map((k) => `defaults.${k}`),
  )
  const set = (next: { [key: string]: JsonValue }, field: string) =>
    onChange(withKey(workflow, 'defaults', Object.keys(next).length === 0 ? undefined : next), field)
  return (
    <Section title="Defaults">
      <Typography variant="caption" component="div">
        <FieldMessages diagnostics={rows.rest} />
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {keys.map((key) => {
          const field = `defaults.${key}`
          const value = defaults[key]
          const kind = kindOf(value)
          const common = {
            label: 'Value',
            field,
            required: true,
            diagnostics: rows.at(field),
            onChange: (v: JsonValue | undefined) => set(withKey(defaults, key, v ?? convert(undefined, kind)), field),
          }
          return (
            <Box key={key} role="group" aria-label={`Default ${key}`} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <Box sx={{ width: '30%', flexShrink: 0 }}>
                <CommitField
                  label="Key"
                  field={`${field}:key`}
                  value={key}
                  validate={(t) => (t === '' ? 'A key cannot be empty' : undefined)}
                  onCommit={(t) => {
                    const next = renameKey(defaults, key, t)
                    if (!next) return `defaults already has "${t}"`
                    set(next, 'defaults')
                  }}
                />
              </Box>
              <TextField
                select
                label="Type"
                value={kind}
                sx={{ minWidth: 100 }}
                onChange={(e) => set(withKey(defaults, key, convert(value, e.target.value as ValueKind)), field)}
              >
                {VALUE_KINDS.map((k) => (
                  <MenuItem key={k} value={k}>
                    {k === 'json' ? 'JSON' : k}
                  </MenuItem>
                ))}
              </TextField>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                {kind === 'string' && <TextInput {...common} value={value as string} />}
                {kind === 'number' && <NumberField {...common} value={value as number} />}
                {kind === 'boolean' && <BooleanField {...common} value={value as boolean} />}
                {kind === 'json' && <JsonField {...common} value={value} />}
              </Box>
              <IconButton aria-label={`Remove default ${key}`} onClick={() => set(withKey(defaults, key, undefined), 'defaults')} sx={{ mt: 0.5 }}>
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Box>
          )
        })}
        <Box>
          <Button startIcon={<Add />} onClick={() => set(withKey(defaults, uniqueName('key', keys), ''), 'defaults')}>
            Add default
          </Button>
        </Box>
      </Box>
    </Section>
  )
}
