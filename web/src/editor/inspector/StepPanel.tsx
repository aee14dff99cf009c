//! A selected step while editing: run it on its own, connect it, delete it, its form (generated from the tool's
//! schema) and its last run (the outputs of which can be dragged onto other steps).
import Cable from '@mui/icons-material/Cable'
import Delete from '@mui/icons-material/DeleteOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import type { StepNode } from '../../api/types'
import ExplainNote from '../../inspector/ExplainNote'
import RunStepButton from '../../inspector/RunStepButton'
import StepRunDetails from '../../inspector/StepRunDetails'
import StepForm from '../forms/StepForm'
import { useEditorStore } from '../useEditor'
import { useStepFormProps } from './useFormProps'

export default function StepPanel({ node }: { node: StepNode }) {
  const store = useEditorStore()
  const form = useStepFormProps(node.id)
  return (
    <Box>
      {/* First, not below the retry and timeout settings: running the step is what a person tries next. */}
      <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <RunStepButton stepId={node.id} size="small" />
        <Button
          size="small"
          variant="outlined"
          startIcon={<Cable />}
          onClick={(e) => {
            const r = e.currentTarget.getBoundingClientRect()
            store.getState().requestConnect({ source: node.id, at: { left: r.left, top: r.bottom } })
          }}
        >
          Connect to…
        </Button>
        <Button size="small" variant="outlined" color="error" startIcon={<Delete />} onClick={() => void store.getState().deleteNodes([node.id])}>
          Delete step
        </Button>
      </Box>
      {/* The panel is keyed by the step (EditorInspector): a new step gets fresh fields. */}
      {form && <StepForm {...form} />}
      <ExplainNote tool={node.tool} />
      <StepRunDetails stepId={node.id} />
    </Box>
  )
}
