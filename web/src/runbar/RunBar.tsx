import PlayArrow from '@mui/icons-material/PlayArrow'
import Stop from '@mui/icons-material/Stop'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useEffect, useState } from 'react'
import { useInputFields } from '../hooks/useInputFields'
import { useApp } from '../app/AppContext'
import PlanButton from '../plan/PlanButton'
import { useInputStore } from '../state/inputStore'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import { coerceInputs } from './coerce'
import CostOverlaySwitch from './CostOverlaySwitch'
import InputControl from './InputControl'
import RunNote from './RunNote'
import RunStatusText from './RunStatusText'
import RunTotals from './RunTotals'
import StepControls from './StepControls'

/** The run form generated from the workflow's inputs, Run / Cancel / Plan, and progress. */
export default function RunBar() {
  const { runs, stepping } = useApp()
  const fields = useInputFields()
  const workflowKey = useWorkflowStore((s) => s.current?.key)
  const hasDefinition = useWorkflowStore((s) => s.current?.definition !== undefined)
  const runnable = useWorkflowStore((s) => s.graph?.runnable === true)
  const values = useInputStore((s) => s.values)
  const setValue = useInputStore((s) => s.setValue)
  const load = useInputStore((s) => s.load)
  const running = useRunStore((s) => s.status === 'running')
  const starting = useRunStore((s) => s.starting)
  const startError = useRunStore((s) => s.startError)
  const [errors, setErrors] = useState<Record<string, string>>({})

  useEffect(() => {
    if (workflowKey) load(workflowKey, fields)
  }, [workflowKey, fields, load])

  const run = (pauseEach = false) => {
    const coerced = coerceInputs(fields, values)
    setErrors(coerced.errors)
    if (Object.keys(coerced.errors).length === 0) void stepping.start(coerced.inputs, pauseEach)
  }
  const canRun = hasDefinition && runnable && !running && !starting
  const why = !workflowKey ? 'Open a workflow first' : !runnable ? 'Fix the errors listed above the canvas first' : ''

  return (
    <Box
      component="section"
      aria-label="Run"
      // Wraps rather than scrolls: on a projector's 1024 px every field and button stays in view.
      sx={{
        borderTop: 1,
        borderColor: 'divider',
        px: 1.5,
        py: 1,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 1.5,
        rowGap: 0.5,
        flexShrink: 0,
        minHeight: 56,
      }}
    >
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault()
          if (canRun) run()
        }}
        // The fields wrap among themselves first; below ~480 px for them the buttons take a row of their own.
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', flex: '1 1 480px', minWidth: 240, py: 0.75 }}
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
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, rowGap: 0.5 }}>
        <Tooltip title={why}>
          <span>
            <Button variant="contained" startIcon={<PlayArrow />} onClick={() => run()} disabled={!canRun}>
              Run
            </Button>
          </span>
        </Tooltip>
        <StepControls onStep={() => run(true)} canRun={canRun} why={why} />
        <Button variant="outlined" color="warning" startIcon={<Stop />} onClick={() => void runs.cancel()} disabled={!running}>
          Cancel
        </Button>
        <PlanButton />
        <RunStatusText />
        <CostOverlaySwitch />
        <RunTotals />
        <RunNote />
        {startError && (
          <Typography variant="body2" role="status" sx={{ color: 'error.main', maxWidth: 320 }} title={startError} noWrap>
            {startError}
          </Typography>
        )}
      </Box>
    </Box>
  )
}
