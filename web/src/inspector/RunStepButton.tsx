import PlayArrow from '@mui/icons-material/PlayArrow'
import Button from '@mui/material/Button'
import Tooltip from '@mui/material/Tooltip'
import { useWorkflowStore } from '../state/workflowStore'
import { useInputStore } from '../state/inputStore'
import { useRunStore } from '../state/runStore'
import { startRun } from '../state/runActions'
import { coerceInputs } from '../runbar/coerce'
import { useInputFields } from '../hooks/useInputFields'

/** Re-runs one step, replaying its dependencies from the current run's outputs. */
export default function RunStepButton({ stepId }: { stepId: string }) {
  const runId = useRunStore((s) => s.runId)
  const running = useRunStore((s) => s.status === 'running' || s.starting)
  const runnable = useWorkflowStore((s) => s.graph?.runnable === true)
  const fields = useInputFields()
  const disabled = !runId || running || !runnable
  const why = !runnable
    ? 'Fix the workflow’s errors first'
    : !runId
      ? 'Run the workflow once first'
      : running
        ? 'A run is in progress'
        : 'Run only this step, reusing the last run’s results for what it depends on'
  const run = () => {
    const { inputs } = coerceInputs(fields, useInputStore.getState().values)
    void startRun(inputs, { step: stepId })
  }
  return (
    <Tooltip title={why}>
      <span>
        <Button variant="outlined" startIcon={<PlayArrow />} disabled={disabled} onClick={run}>
          Run this step
        </Button>
      </span>
    </Tooltip>
  )
}
