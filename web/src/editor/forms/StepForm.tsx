import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { memo, useCallback, useLayoutEffect, useMemo, useRef } from 'react'
import CompensationSectionView from './CompensationSection'
import { placeDiagnostics } from './diagnostics'
import FieldMessages from './FieldMessages'
import { FormContext } from './FormContext'
import StepHeaderSection from './StepHeader'
import StepInputsSection from './StepInputs'
import StepJson from './StepJson'
import StepSettingsSection from './StepSettings'
import { stepFields } from './stepSettings'
import type { StepFormProps, StepUpdate } from './types'
import { useFocusField } from './useFocusField'

// The big sections redraw only when what they show changes (an edit elsewhere in the step, or
// on the canvas, leaves them alone): each takes its part of the step and a stable `update`.
const StepHeader = memo(StepHeaderSection)
const StepInputs = memo(StepInputsSection)
const StepSettings = memo(StepSettingsSection)
const CompensationSection = memo(CompensationSectionView)

const NO_TOOLS: readonly string[] = []

/**
 * One step, edited: id, name, the form generated from its tool's input schema, the step
 * settings, and the raw JSON. Controlled: every edit is one `onChange` with the whole next step.
 */
export default function StepForm(p: StepFormProps) {
  const { step, tool } = p
  const root = useRef<HTMLFormElement>(null)
  useFocusField(root, p.focusField)
  const context = useMemo(
    () => ({ complete: p.complete, stepId: step.id, stepIds: p.stepIds, agentTools: p.agentTools }),
    [p.complete, step.id, p.stepIds, p.agentTools],
  )
  const fields = stepFields(step, tool).join('\n')
  const placed = useMemo(() => placeDiagnostics(p.diagnostics, fields.split('\n')), [p.diagnostics, fields])
  // The step and onChange as of the last render, for `update`, which stays the same function
  // for the form's life (onChange changes with the step's id: a rename would redraw it all).
  const latest = useRef({ step, onChange: p.onChange })
  useLayoutEffect(() => {
    latest.current = { step, onChange: p.onChange }
  })
  const update = useCallback<StepUpdate>((edit, field) => latest.current.onChange(edit(latest.current.step), field), [])
  const { id, name, description, condition, forEach, forEachConcurrency, continueOnError, dependsOn, timeoutMs, retry } = step
  const who = useMemo(() => ({ id, tool: step.tool, name, description }), [id, step.tool, name, description])
  const settings = useMemo(
    () => ({ condition, forEach, forEachConcurrency, continueOnError, dependsOn, timeoutMs, retry }),
    [condition, forEach, forEachConcurrency, continueOnError, dependsOn, timeoutMs, retry],
  )
  return (
    <FormContext.Provider value={context}>
      <Box ref={root} component="form" aria-label={`Step ${step.id}`} noValidate onSubmit={(e) => e.preventDefault()}>
        <StepHeader step={who} tool={tool} at={placed.at} update={update} onRename={p.onRename} />
        {placed.rest.length > 0 && (
          <Typography variant="body2" component="div" role="status" sx={{ mt: 1 }}>
            <FieldMessages diagnostics={placed.rest} />
          </Typography>
        )}
        {tool ? (
          <StepInputs stepTool={step.tool} inputs={step.inputs} tool={tool} at={placed.at} update={update} childWorkflows={p.childWorkflows} />
        ) : (
          <Typography variant="body2" sx={{ mt: 2, color: 'text.secondary' }}>
            Unknown tool “{step.tool}”: edit the step as JSON below.
          </Typography>
        )}
        {tool && <StepSettings settings={settings} at={placed.at} update={update} />}
        {tool && <CompensationSection compensate={step.compensate} toolNames={p.toolNames ?? NO_TOOLS} at={placed.at} update={update} />}
        <StepJson step={step} onChange={p.onChange} initiallyOpen={!tool} />
      </Box>
    </FormContext.Provider>
  )
}
