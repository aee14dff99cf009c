//! The workflow's output node: the output mapping's fields. Mirrors the run's final status (the
//! child run's, in a sub-workflow).
import Output from '@mui/icons-material/Output'
import type { NodeProps } from '@xyflow/react'
import { memo } from 'react'
import { useEditSession } from '../editor/editSession'
import type { RunState } from '../api/types'
import { useRunStore } from '../state/runStore'
import { runAt, useCanvasScope } from './canvasScope'
import { IO_BAR, type OutputFlowNode } from './flowTypes'
import IoHeader from './IoHeader'
import IoList from './IoList'
import NodeFrame from './NodeFrame'
import type { NodeStatus } from './useStepRun'

const STATUS: Record<RunState, NodeStatus> = {
  running: 'pending',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  // Not ended for good: the output may still come.
  waiting: 'pending',
  interrupted: 'pending',
}

function OutputNode({ id, data, selected }: NodeProps<OutputFlowNode>) {
  const { path } = useCanvasScope()
  const status = useRunStore((s) => {
    const run = runAt(s, path)
    return run?.status ? STATUS[run.status] : 'idle'
  })
  const editing = useEditSession((s) => s.active)
  const rows = data.fields.map((field) => ({ key: field, label: field }))
  return (
    <NodeFrame id={id} color={IO_BAR} category="io" status={status} handles="target" selected={selected}>
      <IoHeader icon={Output} label="Output" />
      <IoList rows={rows} empty={editing ? 'connect a step here' : 'single value'} />
    </NodeFrame>
  )
}

export default memo(OutputNode)
