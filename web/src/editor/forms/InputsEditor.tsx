import Add from '@mui/icons-material/Add'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import type { InputDecl, Workflow } from '../../api/types'
import Section from '../../inspector/Section'
import { placeDiagnostics, type Placed } from './diagnostics'
import FieldMessages from './FieldMessages'
import InputRow from './InputRow'
import { uniqueName, withKey } from './objects'
import type { WorkflowSettingsProps } from './types'

interface Props {
  workflow: Workflow
  placed: Placed
  onChange: WorkflowSettingsProps['onChange']
  onRenameInput: WorkflowSettingsProps['onRenameInput']
}

/** The declared inputs, in file order: add, remove, rename (references follow), edit. */
export default function InputsEditor({ workflow, placed, onChange, onRenameInput }: Props) {
  const inputs: { [name: string]: InputDecl } = workflow.inputs ?? {}
  const names = Object.keys(inputs)
  const rows = placeDiagnostics(
    placed.at('inputs'),
    names.map((n) => `inputs.${n}`),
  )
  const setInputs = (next: { [name: string]: InputDecl }, field: string) =>
    onChange(withKey(workflow, 'inputs', Object.keys(next).length === 0 ? undefined : next), field)
  return (
    <Section title="Inputs">
      <Typography variant="caption" component="div">
        <FieldMessages diagnostics={rows.rest} />
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {names.map((name) => (
          <InputRow
            key={name}
            name={name}
            decl={inputs[name]}
            diagnostics={rows.at(`inputs.${name}`)}
            onChange={(decl, field) => setInputs(withKey(inputs, name, decl), field)}
            onRename={onRenameInput}
            onRemove={() => setInputs(withKey(inputs, name, undefined), 'inputs')}
          />
        ))}
        <Box>
          <Button startIcon={<Add />} onClick={() => setInputs(withKey(inputs, uniqueName('input', names), { type: 'string' }), 'inputs')}>
            Add input
          </Button>
        </Box>
      </Box>
    </Section>
  )
}
