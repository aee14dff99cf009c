//! Nothing (or the inputs/output node) selected while editing: the workflow's problems (each
//! selects its step and focuses its field), its settings form and its last result; the workflow
//! inputs can be wired from here by keyboard.
import Cable from '@mui/icons-material/Cable'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import RunSummaryView from '../../inspector/RunSummaryView'
import ProblemsList from '../forms/ProblemsList'
import WorkflowSettings from '../forms/WorkflowSettings'
import { inputNames, INPUTS_NODE } from '../doc/model'
import { useEditor, useEditorStore } from '../useEditor'
import { useProblemsListProps, useWorkflowSettingsProps } from './useFormProps'

export default function WorkflowPanel() {
  const store = useEditorStore()
  const problems = useProblemsListProps()
  const settings = useWorkflowSettingsProps()
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
      <ProblemsList {...problems} />
      <WorkflowSettings {...settings} />
      <RunSummaryView />
    </Box>
  )
}
