//! A workflow step on the canvas: category colour and icon, name, tool, a one-line summary of
//! its main input, condition/forEach badges, and its live run status (read per node): waiting
//! for a person at a `yield`, and being undone by its compensation after the run ended badly. A
//! `workflow` step opens the sub-workflow it calls. Breakpoints and pauses belong to the open
//! workflow's run, so a sub-workflow's nodes have neither. With the cost and time overlay on, a
//! step that ran shows its cost and tokens (when it reported them), and the run's critical path
//! is ringed. While two runs are compared, a step that changed since run A is ringed, badged and
//! says what changed on its last line.
import Box from '@mui/material/Box'
import type { NodeProps } from '@xyflow/react'
import { memo } from 'react'
import type { CompensationState } from '../api/types'
import { useEditSession } from '../editor/editSession'
import { useRunStore } from '../state/runStore'
import BreakpointMarker from './BreakpointMarker'
import { useCanvasScope } from './canvasScope'
import type { StepFlowNode } from './flowTypes'
import NodeBadge from './NodeBadge'
import NodeFrame from './NodeFrame'
import OpenSubWorkflow from './OpenSubWorkflow'
import StatusIcon from './StatusIcon'
import StepCostLine from './StepCostLine'
import { stepChange, type StepChange } from '../history/diffView'
import { useStepDiff } from '../history/useStepDiff'
import StepDetail from './StepDetail'
import StepDiffLine from './StepDiffLine'
import StepIcon from './StepIcon'
import StepTiming from './StepTiming'
import { clampedTitle, ellipsis, mono } from './textSx'
import { useStepOverlay } from './useStepOverlay'
import { useStepRun, type StepRun } from './useStepRun'

function StepNode({ data, selected }: NodeProps<StepFlowNode>) {
  // The step's id: while editing, React Flow's node id is a key that a rename keeps.
  const id = data.id
  const run = useStepRun(id)
  const overlay = useStepOverlay(id)
  // Read only with a run shown: an edit marks every step downstream stale, and nodes with
  // nothing to mark must not redraw for it.
  const stale = useEditSession((s) => run.status !== 'idle' && s.stale[id] === true)
  const inSub = useCanvasScope().path.length > 0
  const paused = useRunStore((s) => !inSub && s.paused?.stepId === id)
  const diff = useStepDiff(id, inSub)
  const change = diff && stepChange(diff)
  return (
    <NodeFrame
      id={id}
      color={data.color}
      category={data.category}
      status={run.status}
      glowing={run.glowing}
      title={titleOf(run, data.description ?? data.summary)}
      handles="both"
      selected={selected}
      paused={paused}
      critical={overlay.critical}
      diff={change}
      corner={inSub ? undefined : <BreakpointMarker id={id} />}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
        <StepIcon name={data.icon} color={data.color} />
        <Box component="span" sx={{ ...clampedTitle, flex: 1 }}>
          {data.name}
        </Box>
        <StatusIcon status={run.status} />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'text.secondary' }}>
        <Box component="span" sx={{ ...ellipsis, ...mono }}>
          {data.tool}
        </Box>
        {data.condition && <NodeBadge label="if" title={`Runs if ${data.condition}`} />}
        {data.forEach && <NodeBadge label="each" title={`For each item of ${data.forEach}`} />}
        {data.continueOnError && <NodeBadge label="continues" title="Continues on error" />}
        {paused && <NodeBadge label="paused" title="The run waits before this step: Next or Continue in the run bar" tone="warning" />}
        {run.state?.compensation && <NodeBadge {...COMPENSATION[run.state.compensation](run.state.error)} />}
        {stale && <NodeBadge label="stale" title="Edited since the last run: the output shown is out of date until the next run" />}
        {diff && change !== 'same' && <NodeBadge {...DIFF_BADGE[change ?? 'changed']} testId={`node-diff-${id}`} />}
        {data.tool === 'workflow' && <OpenSubWorkflow stepId={id} />}
        <Box sx={{ flex: 1 }} />
        <StepTiming run={run} />
      </Box>
      {overlay.usage && run.status === 'completed' ? (
        <StepCostLine usage={overlay.usage} />
      ) : diff ? (
        <StepDiffLine step={diff} />
      ) : (
        <StepDetail run={run} summary={data.summary} />
      )}
    </NodeFrame>
  )
}

export default memo(StepNode)

const DIFF_BADGE: Record<Exclude<StepChange, 'same'>, { label: string; title: string; tone: 'info' | 'success' }> = {
  changed: { label: 'changed', title: 'Differs from run A (the inspector shows how)', tone: 'info' },
  added: { label: 'added', title: 'Not in run A’s workflow', tone: 'success' },
  removed: { label: 'removed', title: 'Not in run B’s workflow', tone: 'info' },
}

const COMPENSATION: Record<CompensationState, (error?: string) => { label: string; title: string; tone?: 'warning' | 'error' }> = {
  compensating: () => ({ label: 'undoing…', title: 'The run ended badly: this step’s compensation is undoing it', tone: 'warning' }),
  compensated: () => ({ label: 'undone', title: 'The run ended badly: this step’s compensation undid it' }),
  compensation_failed: (error) => ({ label: 'undo failed', title: `This step’s compensation failed${error ? `: ${error}` : ''}`, tone: 'error' }),
}

function titleOf({ status, state }: StepRun, fallback?: string): string | undefined {
  if (status === 'failed' && state?.error) return `Failed: ${state.error}`
  if (status === 'waiting') return 'Waiting for a person: answer in the inspector'
  if (status === 'skipped' && state?.reason) return `Skipped: ${state.reason}`
  return fallback
}
