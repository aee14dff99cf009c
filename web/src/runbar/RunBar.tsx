import PlayArrow from '@mui/icons-material/PlayArrow'
import Stop from '@mui/icons-material/Stop'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useEffect, useState } from 'react'
import { useInputFields } from '../hooks/useInputFields'
import PlanButton from '../plan/PlanButton'
import { useInputStore } from '../state/inputStore'
import { cancelRun, startRun } from '../state/runActions'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import { coerceInputs } from './coerce'
import InputControl from './InputControl'
import RunStatusText from './RunStatusText'

/** The run form generated from the workflow's inputs, Run / Cancel / Plan, and progress. */
export default function RunBar() {
  const fields = useInputFields()
  const workflowKey = useWorkflowStore((s) => s.current?.key)
  const hasDefinition = useWorkflowStore((s) => s.current?.definition !== undefined)
  const runnable = useWorkflowStore((s) => s.graph?.runnable === true)
  const values = useInputStore((s) => s.values)
  const setValue = useInputStore((s) => s.setValue)
  const running = useRunStore((s) => s.status === 'running')
  const starting = useRunStore((s) => s.starting)
  const startError = useRunStore((s) => s.startError)
  const [errors, setErrors] = useState<Record<string, string>>({})

  useEffect(() => {
    if (workflowKey) useInputStore.getState().load(workflowKey, fields)
  }, [workflowKey, fields])

  const run = () => {
    const coerced = coerceInputs(fields, values)
    setErrors(coerced.errors)
    if (Object.keys(coerced.errors).length === 0) void startRun(coerced.inputs)
  }
  const canRun = hasDefinition && runnable && !running && !starting
  const why = !workflowKey ? 'Open a workflow first' : !runnable ? 'Fix the errors listed above the canvas first' : ''

  return (
    <Box
      component="section"
      aria-label="Run"
      sx={{ borderTop: 1, borderColor: 'divider', px: 1.5, py: 1, display: 'flex', alignItems: 'center', gap: 1.5, flexShrink: 0, minHeight: 56 }}
    >
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault()
          if (canRun) run()
        }}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', overflowX: 'auto', flex: 1, minWidth: 0, py: 0.75 }}
      >
        {fields.map((f) => (
          <InputControl key={f.name} field={f} value={values[f.name]} error={errors[f.name]} disabled={running} onChange={(v) => setValue(f.name, v)} />
        ))}
        {workflowKey && fields.length === 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary', alignSelf: 'center' }}>
            No inputs
          </Typography>
        )}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Box>
      <Tooltip title={why}>
        <span>
          <Button variant="contained" startIcon={<PlayArrow />} onClick={run} disabled={!canRun}>
            Run
          </Button>
        </span>
      </Tooltip>
      <Button variant="outlined" color="warning" startIcon={<Stop />} onClick={() => void cancelRun()} disabled={!running}>
        Cancel
      </Button>
      <PlanButton />
      <RunStatusText />
      {startError && (
        <Typography variant="body2" role="status" sx={{ color: 'error.main', maxWidth: 320 }} title={startError} noWrap>
          {startError}
        </Typography>
      )}
    </Box>
  )
}
