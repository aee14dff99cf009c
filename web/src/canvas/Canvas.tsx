//! The canvas region: the open workflow's graph, or an empty state when there is none.
import Box from '@mui/material/Box'
import { ReactFlowProvider } from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useWorkflowStore } from '../state/workflowStore'
import CanvasEmpty from './CanvasEmpty'
import CanvasFlow from './CanvasFlow'

export default function Canvas() {
  const graph = useWorkflowStore((s) => s.graph)
  return (
    <Box component="main" aria-label="Canvas" sx={{ position: 'relative', width: '100%', height: '100%', minHeight: 0 }}>
      {graph ? (
        <ReactFlowProvider>
          <CanvasFlow graph={graph} />
        </ReactFlowProvider>
      ) : (
        <CanvasEmpty />
      )}
    </Box>
  )
}
