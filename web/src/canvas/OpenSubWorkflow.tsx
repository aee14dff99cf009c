//! The "open" button on a `workflow` step's node: fetches the child it calls from the library
//! (subWorkflow.ts), plans it, and has the canvas draw it in place of the calling graph. Absent
//! while editing, and for a child named by a template or missing from the library.
import Box from '@mui/material/Box'
import { useState } from 'react'
import { errorInfo } from '../api/client'
import { useApp } from '../app/AppContext'
import { useEditSession } from '../editor/editSession'
import { useWorkflowStore } from '../state/workflowStore'
import { useCanvasScope } from './canvasScope'
import { childWorkflowId, childWorkflowName } from './subWorkflow'

export default function OpenSubWorkflow({ stepId }: { stepId: string }) {
  const { api, stores } = useApp()
  const { path, definition } = useCanvasScope()
  const editing = useEditSession((s) => s.active)
  const name = childWorkflowName(definition, stepId)
  const id = useWorkflowStore((s) => (name === undefined ? undefined : childWorkflowId(name, s.library)))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  if (editing || name === undefined || id === undefined) return null

  const open = async () => {
    // The graph the trail hangs from: a sub-workflow that arrives after another workflow opened
    // is kept with the graph it was asked from, and not drawn.
    const of = stores.workflow.getState().graph
    if (!of) return
    setBusy(true)
    setError(undefined)
    try {
      const doc = await api.getWorkflow(id)
      const plan = await api.plan({ text: doc.text })
      if (!plan.graph) throw new Error(plan.diagnostics?.[0]?.message ?? 'it has no graph to draw')
      stores.canvas.getState().openSub(of, path.length, { stepId, workflow: name, id, graph: plan.graph, definition: doc.definition })
    } catch (e) {
      setError(`Could not open ${name}: ${errorInfo(e).message}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Box
      component="button"
      type="button"
      // React Flow leaves elements with these classes to themselves: no drag, no pan.
      className="nodrag nopan"
      aria-label={`Open sub-workflow ${name}`}
      title={error ?? `Show the steps of ${name} (with its run’s progress while a run is shown)`}
      disabled={busy}
      onClick={(e) => {
        e.stopPropagation()
        void open()
      }}
      sx={{
        px: 0.5,
        borderRadius: 0.75,
        border: 1,
        borderColor: error ? 'error.main' : 'primary.main',
        color: error ? 'error.main' : 'primary.main',
        bgcolor: 'transparent',
        font: 'inherit',
        fontSize: 10,
        fontWeight: 600,
        lineHeight: '14px',
        flexShrink: 0,
        cursor: 'pointer',
        '&:hover': { bgcolor: 'action.hover' },
        '&:disabled': { opacity: 0.6, cursor: 'progress' },
        '&:focus-visible': { outline: 2, outlineColor: 'primary.light', outlineOffset: 1 },
      }}
    >
      open ›
    </Box>
  )
}
