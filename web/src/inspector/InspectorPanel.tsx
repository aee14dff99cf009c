import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { lazy, memo, Suspense, useEffect, useRef } from 'react'
import { useEditSession } from '../editor/editSession'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import AnswerForm from './AnswerForm'
import StepInspector from './StepInspector'
import WorkflowInspector from './WorkflowInspector'

// Memoised: the read-only view below follows the graph, which every edit replaces; the editor's
// inspector reads the editor store itself and must not redraw its whole form with it.
const EditorInspector = memo(lazy(() => import('../editor/inspector/EditorInspector')))

/** `fill`: take the width it is given (presenter mode's overlay) rather than a side panel's. */
export default function InspectorPanel({ fill = false }: { fill?: boolean }) {
  const editing = useEditSession((s) => s.active)
  const hasWorkflow = useWorkflowStore((s) => s.current !== undefined)
  const graph = useWorkflowStore((s) => s.graph)
  const selected = useWorkflowStore((s) => s.selected)
  const node = graph?.nodes.find((n) => n.id === selected)
  const runId = useRunStore((s) => s.runId)
  // Whatever is selected, a run waiting for a person asks first.
  const waiting = useRunStore((s) => (s.status === 'waiting' ? s.waiting : undefined))
  const panel = useRef<HTMLElement>(null)
  // A new selection starts at its heading, not wherever the previous one was scrolled to.
  useEffect(() => {
    panel.current?.scrollTo?.({ top: 0 })
  }, [selected])

  return (
    <Box
      component="aside"
      ref={panel}
      aria-label="Inspector"
      sx={{ width: fill ? '100%' : 380, flexShrink: 0, borderLeft: fill ? 0 : 1, borderColor: 'divider', overflow: 'auto', p: 2, minHeight: 0 }}
    >
      {editing ? (
        <Suspense fallback={null}>
          <EditorInspector />
        </Suspense>
      ) : (
        <>
          {runId && waiting && <AnswerForm key={`${runId} ${JSON.stringify(waiting)}`} runId={runId} waiting={waiting} />}
          {!hasWorkflow ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              Open a workflow to inspect it. Select a step on the canvas to see its configuration and, after a run, its inputs and output.
            </Typography>
          ) : node?.kind === 'step' ? (
            <StepInspector key={node.id} node={node} />
          ) : (
            <WorkflowInspector graph={graph} />
          )}
        </>
      )}
    </Box>
  )
}
