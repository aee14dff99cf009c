//! The unsaved-changes guard: leaving the document (another workflow, back/forward, Done) with
//! unsaved changes asks first.
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { useEditSession } from '../editSession'
import { useEditor } from '../useEditor'

export default function LeaveDialog() {
  const leaving = useEditSession((s) => s.leaving)
  const name = useEditor((s) => s.doc.name || s.source.label)
  if (!leaving) return null
  return (
    <Dialog open onClose={() => leaving(false)} maxWidth="xs">
      <DialogTitle>Discard unsaved changes?</DialogTitle>
      <DialogContent>
        <DialogContentText>“{name}” has changes that are not saved. Discarding them cannot be undone.</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button autoFocus onClick={() => leaving(false)}>
          Keep editing
        </Button>
        <Button color="error" variant="contained" onClick={() => leaving(true)}>
          Discard changes
        </Button>
      </DialogActions>
    </Dialog>
  )
}
