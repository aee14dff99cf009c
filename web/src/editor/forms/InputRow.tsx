import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import type { HTMLAttributes } from 'react'
import type { Diagnostic, InputDecl, InputType, JsonValue } from '../../api/types'
import BooleanField from './BooleanField'
import CommitField from './CommitField'
import { placeDiagnostics } from './diagnostics'
import { fieldAttrs } from './fieldProps'
import FieldMessages from './FieldMessages'
import JsonField from './JsonField'
import NumberField from './NumberField'
import { withKey } from './objects'
import { identifierError } from './stepSettings'
import TextInput from './TextInput'
import type { Renamer } from './types'
import { accepts, INPUT_TYPES } from './values'

interface Props {
  name: string
  decl: InputDecl
  /** The diagnostics under `inputs.<name>`. */
  diagnostics: readonly Diagnostic[]
  onChange(next: InputDecl, field: string): void
  onRename: Renamer
  onRemove(): void
}

/** One declared input: name (renamed through the editor), type, required, default, description. */
const PARTS = ['type', 'required', 'default', 'description']

export default function InputRow({ name, decl, diagnostics, onChange, onRename, onRemove }: Props) {
  const field = `inputs.${name}`
  const placed = placeDiagnostics(
    diagnostics,
    PARTS.map((k) => `${field}.${k}`),
  )
  const set = (key: string) => (value: JsonValue | undefined) => onChange(withKey(decl, key, value), `${field}.${key}`)
  const at = (key: string) => placed.at(`${field}.${key}`)
  const def = { label: 'Default', field: `${field}.default`, value: decl.default, diagnostics: at('default'), onChange: set('default') }
  return (
    <Box
      role="group"
      aria-label={`Input ${name}`}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <CommitField
          label="Name"
          field={field}
          value={name}
          required
          diagnostics={placed.rest}
          validate={(t) => identifierError(t, 'input name')}
          onCommit={(t) => onRename(name, t)}
        />
        <TextField
          select
          label="Type"
          value={decl.type}
          error={at('type').some((d) => d.severity === 'error')}
          helperText={<FieldMessages diagnostics={at('type')} />}
          sx={{ minWidth: 120 }}
          onChange={(e) => {
            const type = e.target.value as InputType
            // A default of the old type would no longer be accepted; it goes with the change.
            const kept = decl.default === undefined || accepts(type, decl.default) ? decl : withKey(decl, 'default', undefined)
            onChange(withKey(kept, 'type', type), `${field}.type`)
          }}
          slotProps={{ select: { SelectDisplayProps: fieldAttrs(`${field}.type`) as HTMLAttributes<HTMLDivElement> } }}
        >
          {INPUT_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {t}
            </MenuItem>
          ))}
        </TextField>
        <IconButton aria-label={`Remove input ${name}`} onClick={onRemove} sx={{ mt: 0.5 }}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Box>
      <BooleanField
        label="Required"
        resettable={false}
        field={`${field}.required`}
        value={decl.required === true ? true : undefined}
        diagnostics={at('required')}
        onChange={(v) => set('required')(v ? true : undefined)}
      />
      {decl.type === 'string' && <TextInput {...def} value={typeof decl.default === 'string' ? decl.default : undefined} />}
      {decl.type === 'number' && <NumberField {...def} value={typeof decl.default === 'number' ? decl.default : undefined} />}
      {decl.type === 'boolean' && <BooleanField {...def} value={typeof decl.default === 'boolean' ? decl.default : undefined} />}
      {(decl.type === 'array' || decl.type === 'object') && (
        <JsonField {...def} check={(v) => (accepts(decl.type, v) ? undefined : `Must be a JSON ${decl.type}`)} />
      )}
      <TextInput label="Description" field={`${field}.description`} value={decl.description} diagnostics={at('description')} onChange={set('description')} />
    </Box>
  )
}
