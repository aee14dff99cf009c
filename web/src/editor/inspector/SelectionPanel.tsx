//! Several nodes selected: what can be done to all of them at once.
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { isStepNode } from '../doc/model'
import { useEditorStore } from '../useEditor'

export default function SelectionPanel({ ids }: { ids: string[] }) {
  const store = useEditorStore()
  const steps = ids.filter(isStepNode).length
  return (
    <Box>
      <Typography component="h2" variant="h6">
        {ids.length} selected
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {steps} step{steps === 1 ? '' : 's'}. Shift-click or drag a box with Shift held to change the selection.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button variant="outlined" disabled={steps === 0} onClick={() => void store.getState().duplicateSelection()}>
          Duplicate
        </Button>
        <Button variant="outlined" color="error" onClick={() => void store.getState().deleteNodes(ids)}>
          Delete
        </Button>
      </Box>
    </Box>
  )
}
