import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useMemo, useRef } from 'react'
import DefaultsEditor from './DefaultsEditor'
import { placeDiagnostics } from './diagnostics'
import FieldMessages from './FieldMessages'
import { FormContext } from './FormContext'
import InputsEditor from './InputsEditor'
import { withKey } from './objects'
import OutputEditor from './OutputEditor'
import TextInput from './TextInput'
import type { WorkflowSettingsProps } from './types'
import { useFocusField } from './useFocusField'

const FIELDS = ['name', 'description', 'version', 'inputs', 'defaults', 'output']
const NO_STEPS: readonly string[] = []

/** The workflow as a whole: name, description, version, inputs, defaults and output mapping. */
export default function WorkflowSettings(p: WorkflowSettingsProps) {
  const { workflow, onChange } = p
  const root = useRef<HTMLFormElement>(null)
  useFocusField(root, p.focusField)
  const context = useMemo(() => ({ complete: p.complete, stepIds: NO_STEPS }), [p.complete])
  const placed = placeDiagnostics(p.diagnostics, FIELDS)
  return (
    <FormContext.Provider value={context}>
      <Box ref={root} component="form" aria-label="Workflow settings" noValidate onSubmit={(e) => e.preventDefault()}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <TextInput
            label="Name"
            field="name"
            value={workflow.name}
            required
            diagnostics={placed.at('name')}
            onChange={(v) => onChange(withKey(workflow, 'name', v ?? ''), 'name')}
          />
          <TextInput
            label="Description"
            field="description"
            value={workflow.description}
            multiline
            diagnostics={placed.at('description')}
            onChange={(v) => onChange(withKey(workflow, 'description', v), 'description')}
          />
          <TextInput
            label="Version"
            field="version"
            value={workflow.version}
            placeholder="1.0.0"
            description="Semantic version, e.g. 1.0.0"
            diagnostics={placed.at('version')}
            onChange={(v) => onChange(withKey(workflow, 'version', v), 'version')}
          />
        </Box>
        {placed.rest.length > 0 && (
          <Typography variant="body2" component="div" role="status" sx={{ mt: 1 }}>
            <FieldMessages diagnostics={placed.rest} />
          </Typography>
        )}
        <InputsEditor workflow={workflow} placed={placed} onChange={onChange} onRenameInput={p.onRenameInput} />
        <DefaultsEditor workflow={workflow} placed={placed} onChange={onChange} />
        <OutputEditor workflow={workflow} placed={placed} onChange={onChange} />
      </Box>
    </FormContext.Provider>
  )
}
