//! A `workflow` step's `inputs`: one field per input the chosen child declares (templates
//! allowed), and any other key kept with a way to remove it. Without a known child, the generic
//! object editor.
import DeleteOutlined from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Typography from '@mui/material/Typography'
import type { Diagnostic, JsonValue } from '../../api/types'
import AnyField from './AnyField'
import { withKey } from './objects'
import type { ChildWorkflow } from './orchestration'
import TemplateField from './TemplateField'

interface Props {
  child: ChildWorkflow
  value: JsonValue | undefined
  at(field: string): Diagnostic[]
  onChange(value: JsonValue | undefined): void
}

type Fields = Record<string, JsonValue | undefined>

export default function ChildInputsField({ child, value, at, onChange }: Props) {
  const given: Fields = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {}
  const set = (name: string) => (v: JsonValue | undefined) => {
    const next = withKey(given, name, v) as Fields
    onChange(Object.keys(next).length === 0 ? undefined : (next as JsonValue))
  }
  const extra = Object.keys(given).filter((k) => !child.inputs.includes(k))
  return (
    <Box role="group" aria-label={`Inputs of ${child.value}`} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {child.inputs.length === 0 ? `${child.label} declares no inputs.` : `The inputs ${child.label} declares:`}
      </Typography>
      {child.inputs.map((name) => {
        const v = given[name]
        const field = `inputs.inputs.${name}`
        return typeof v === 'string' || v === undefined ? (
          <TemplateField key={name} label={name} field={field} value={v} diagnostics={at(field)} onChange={set(name)} />
        ) : (
          <AnyField key={name} label={name} field={field} value={v} diagnostics={at(field)} onChange={set(name)} />
        )
      })}
      {extra.map((name) => (
        <Box key={name} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <AnyField
              label={name}
              field={`inputs.inputs.${name}`}
              value={given[name]}
              description={`${child.value} declares no input "${name}"`}
              diagnostics={at(`inputs.inputs.${name}`)}
              onChange={set(name)}
            />
          </Box>
          <IconButton size="small" aria-label={`Remove input ${name}`} onClick={() => set(name)(undefined)} sx={{ mt: 0.75 }}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Box>
      ))}
    </Box>
  )
}
