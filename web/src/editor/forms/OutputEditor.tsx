import Add from '@mui/icons-material/Add'
import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Typography from '@mui/material/Typography'
import type { JsonValue, Workflow } from '../../api/types'
import Section from '../../inspector/Section'
import AnyField from './AnyField'
import CommitField from './CommitField'
import { placeDiagnostics, type Placed } from './diagnostics'
import FieldMessages from './FieldMessages'
import JsonField from './JsonField'
import { isObject, renameKey, uniqueName, withKey } from './objects'
import TemplateField from './TemplateField'
import type { WorkflowSettingsProps } from './types'

interface Props {
  workflow: Workflow
  placed: Placed
  onChange: WorkflowSettingsProps['onChange']
}

/**
 * The output mapping: an object of template fields, or one template, resolved after the run.
 * Without one, the run's output is every step's output.
 */
export default function OutputEditor({ workflow, placed, onChange }: Props) {
  const output = workflow.output
  const set = (next: JsonValue | undefined, field = 'output') => onChange(withKey(workflow, 'output', next), field)
  const mapped: { [key: string]: JsonValue } = isObject(output) ? output : {}
  const keys = Object.keys(mapped)
  const rows = placeDiagnostics(
    placed.at('output'),
    keys.map((k) => `output.${k}`),
  )
  // A single template or raw value takes every output diagnostic under itself.
  const single = output !== undefined && !isObject(output)
  const addField = () => set(withKey(mapped, uniqueName('field', keys), ''))
  return (
    <Section title="Output">
      <Typography variant="caption" component="div">
        <FieldMessages diagnostics={single ? [] : rows.rest} />
      </Typography>
      {output === undefined && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          No output mapping: the run’s output is every step’s output.
        </Typography>
      )}
      {typeof output === 'string' && (
        <TemplateField label="Output template" field="output" value={output} required diagnostics={rows.rest} onChange={(v) => set(v ?? '')} />
      )}
      {output !== undefined && typeof output !== 'string' && !isObject(output) && (
        <JsonField label="Output" field="output" value={output} required diagnostics={rows.rest} onChange={(v) => set(v ?? null)} />
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {keys.map((key) => {
          const field = `output.${key}`
          return (
            <Box key={key} role="group" aria-label={`Output ${key}`} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <Box sx={{ width: '30%', flexShrink: 0 }}>
                <CommitField
                  label="Name"
                  field={`${field}:key`}
                  value={key}
                  validate={(t) => (t === '' ? 'A name cannot be empty' : undefined)}
                  onCommit={(t) => {
                    const next = renameKey(mapped, key, t)
                    if (!next) return `The output already has "${t}"`
                    set(next)
                  }}
                />
              </Box>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <AnyField
                  label="Value"
                  field={field}
                  value={mapped[key]}
                  required
                  diagnostics={rows.at(field)}
                  onChange={(v) => set(withKey(mapped, key, v ?? ''), field)}
                />
              </Box>
              <IconButton aria-label={`Remove output ${key}`} onClick={() => set(withKey(mapped, key, undefined))} sx={{ mt: 0.5 }}>
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Box>
          )
        })}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        {(output === undefined || isObject(output)) && (
          <Button startIcon={<Add />} onClick={addField}>
            Add output field
          </Button>
        )}
        {output === undefined && <Button onClick={() => set('')}>Use one template</Button>}
        {output !== undefined && <Button onClick={() => set(undefined)}>Remove the output mapping</Button>}
      </Box>
    </Section>
  )
}
