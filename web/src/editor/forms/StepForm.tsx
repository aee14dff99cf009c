import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useMemo, useRef } from 'react'
import { placeDiagnostics } from './diagnostics'
import FieldMessages from './FieldMessages'
import { FormContext } from './FormContext'
import StepHeader from './StepHeader'
import StepInputs from './StepInputs'
import StepJson from './StepJson'
import StepSettings from './StepSettings'
import { stepFields } from './stepSettings'
import type { StepFormProps } from './types'
import { useFocusField } from './useFocusField'

/**
 * One step, edited: id, name, the form generated from its tool's input schema, the step
 * settings, and the raw JSON. Controlled: every edit is one `onChange` with the whole next step.
 */
export default function StepForm(p: StepFormProps) {
  const { step, tool } = p
  const root = useRef<HTMLFormElement>(null)
  useFocusField(root, p.focusField)
  const context = useMemo(() => ({ complete: p.complete, stepId: step.id, stepIds: p.stepIds }), [p.complete, step.id, p.stepIds])
  const placed = placeDiagnostics(p.diagnostics, stepFields(step, tool))
  return (
    <FormContext.Provider value={context}>
      <Box ref={root} component="form" aria-label={`Step ${step.id}`} noValidate onSubmit={(e) => e.preventDefault()}>
        <StepHeader step={step} tool={tool} at={placed.at} onChange={p.onChange} onRename={p.onRename} />
        {placed.rest.length > 0 && (
          <Typography variant="body2" component="div" role="status" sx={{ mt: 1 }}>
            <FieldMessages diagnostics={placed.rest} />
          </Typography>
        )}
        {tool ? (
          <StepInputs step={step} tool={tool} at={placed.at} onChange={p.onChange} />
        ) : (
          <Typography variant="body2" sx={{ mt: 2, color: 'text.secondary' }}>
            Unknown tool “{step.tool}”: edit the step as JSON below.
          </Typography>
        )}
        {tool && <StepSettings step={step} at={placed.at} onChange={p.onChange} />}
        <StepJson step={step} onChange={p.onChange} initiallyOpen={!tool} />
      </Box>
    </FormContext.Provider>
  )
}
