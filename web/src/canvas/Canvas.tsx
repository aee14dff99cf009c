//! The canvas region: the open workflow's graph, or an empty state when there is none. In edit
//! mode the builder's canvas (a separate chunk, loaded when editing starts) takes its place.
//! Its size is kept for the layout, which wraps a graph too wide for it (layout.ts). A
//! sub-workflow opened from a `workflow` step is drawn in place of the graph, under a
//! breadcrumb back, its nodes showing the step's child run (canvasScope.ts).
import Box from '@mui/material/Box'
import { ReactFlowProvider } from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { lazy, memo, Suspense, useLayoutEffect, useMemo, useRef } from 'react'
import { useApp } from '../app/AppContext'
import { useEditSession } from '../editor/editSession'
import { useWorkflowStore } from '../state/workflowStore'
import CanvasEmpty from './CanvasEmpty'
import CanvasFlow from './CanvasFlow'
import { CanvasScopeContext, type CanvasScope } from './canvasScope'
import SubWorkflowBar from './SubWorkflowBar'
import { trailOf, useCanvasStore } from './useCanvasStore'

// Memoised: every edit replaces the graph this component follows for the read-only view; the
// builder reads the editor store itself.
const EditorCanvas = memo(lazy(() => import('../editor/EditorCanvas')))

export default function Canvas() {
  const graph = useWorkflowStore((s) => s.graph)
  const definition = useWorkflowStore((s) => s.current?.definition)
  const trail = useCanvasStore((s) => trailOf(s, graph))
  const level = trail.at(-1)
  const edges = (level?.graph ?? graph)?.edges
  const scope = useMemo<CanvasScope>(
    () => ({ path: trail.map((l) => l.stepId), definition: level ? level.definition : definition, edges: edges && (() => edges) }),
    [trail, level, definition, edges],
  )
  const editing = useEditSession((s) => s.active)
  const canvas = useApp().stores.canvas
  const region = useRef<HTMLElement>(null)
  // Measured before a graph is drawn, so its first layout is made for this canvas; kept in the
  // canvas store rather than in state, so a resize does not redraw the canvas.
  useLayoutEffect(() => {
    const el = region.current!
    const measure = () => canvas.setState({ size: { width: el.clientWidth, height: el.clientHeight } })
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [canvas])
  return (
    <Box component="main" aria-label="Canvas" ref={region} sx={canvasSx}>
      {editing ? (
        <Suspense fallback={<CanvasEmpty />}>
          <ReactFlowProvider>
            <EditorCanvas />
          </ReactFlowProvider>
        </Suspense>
      ) : graph ? (
        <CanvasScopeContext value={scope}>
          <ReactFlowProvider>
            <CanvasFlow graph={level?.graph ?? graph} />
          </ReactFlowProvider>
          {level && <SubWorkflowBar trail={trail} />}
        </CanvasScopeContext>
      ) : (
        <CanvasEmpty />
      )}
    </Box>
  )
}

/**
 * React Flow ships a card look for its built-in `output` node type, which shares our output
 * node's type name; our NodeFrame draws the card, so that look is switched off here.
 */
const OUTPUT_NODE_LOOKS = ['', '.selectable:hover', '.selectable.selected', '.selectable:focus', '.selectable:focus-visible']
const canvasSx = {
  position: 'relative',
  width: '100%',
  height: '100%',
  minHeight: 0,
  [OUTPUT_NODE_LOOKS.map((selector) => `& .react-flow__node-output${selector}`).join(', ')]: {
    p: 0,
    border: 'none',
    borderRadius: 0,
    background: 'none',
    boxShadow: 'none',
    color: 'inherit',
    textAlign: 'left',
  },
  // Keyboard focus (Tab moves between nodes) must stay visible on our custom nodes.
  '& .react-flow__node:focus-visible': { outline: 2, outlineColor: 'primary.light', outlineOffset: 4, borderRadius: 1.5 },
} as const
