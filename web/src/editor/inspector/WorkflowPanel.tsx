//! Nothing (or the inputs/output node) selected while editing: the workflow as a whole and its
//! problems, each of which selects its step; the workflow inputs can be wired from here by
//! keyboard.
import Cable from '@mui/icons-material/Cable'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import WorkflowInspector from '../../inspector/WorkflowInspector'
import DiagnosticsList from '../../shell/DiagnosticsList'
import { useWorkflowStore } from '../../state/workflowStore'
import { inputNames, INPUTS_NODE } from '../doc/model'
import { useEditor, useEditorStore } from '../useEditor'

export default function WorkflowPanel() {
  const store = useEditorStore()
  const graph = useWorkflowStore((s) => s.graph)
  const hasInputs = useEditor((s) => inputNames(s.doc).length > 0)
  return (
    <Box>
      {hasInputs && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<Cable />}
          sx={{ mb: 1 }}
          onClick={(e) => {
            const r = e.currentTarget.getBoundingClientRect()
            store.getState().requestConnect({ source: INPUTS_NODE, at: { left: r.left, top: r.bottom } })
          }}
        >
          Connect an input to…
        </Button>
      )}
      <DiagnosticsList />
      <WorkflowInspector graph={graph} />
    </Box>
  )
}
