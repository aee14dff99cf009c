//! "Run this step": runs one step, replaying what it depends on from the current run. Before any
//! run, a step that reads nothing but the workflow's inputs can run on its own already.
import PlayArrow from '@mui/icons-material/PlayArrow'
import Button from '@mui/material/Button'
import Tooltip from '@mui/material/Tooltip'
import { useApp } from '../app/AppContext'
import { upstreamSteps, useWorkflowStore } from '../state/workflowStore'
import { useRunStore } from '../state/runStore'
import { coerceInputs } from '../runbar/coerce'
import { useInputFields } from '../hooks/useInputFields'

export default function RunStepButton({ stepId, size }: { stepId: string; size?: 'small' | 'medium' }) {
  const { stores, runs } = useApp()
  const runId = useRunStore((s) => s.runId)
  const running = useRunStore((s) => s.status === 'running' || s.starting)
  const runnable = useWorkflowStore((s) => s.graph?.runnable === true)
  // A string, so the selector's answer compares equal while the wiring stays the same.
  const upstream = useWorkflowStore((s) => upstreamSteps(s.graph, stepId).join(', '))
  const fields = useInputFields()
  // Without a run to replay from, the server skips every step this one depends on.
  const needsRun = !runId && upstream !== ''
  const disabled = running || !runnable || needsRun
  const why = !runnable
    ? 'Fix the workflow’s errors first'
    : running
      ? 'A run is in progress'
      : needsRun
        ? `Run the workflow once first: this step reads from ${upstream}`
        : upstream === ''
          ? 'Run only this step, with the workflow’s inputs'
          : 'Run only this step, reusing the last run’s results for what it depends on'
  const run = () => {
    const { inputs } = coerceInputs(fields, stores.inputs.getState().values)
    void runs.start(inputs, { step: stepId })
  }
  return (
    <Tooltip title={why}>
      <span>
        <Button size={size} variant="outlined" startIcon={<PlayArrow />} disabled={disabled} onClick={run}>
          Run this step
        </Button>
      </span>
    </Tooltip>
  )
}
