//! Saving over a file that changed on disk since it was opened (someone edited it elsewhere):
//! reload the file (undo brings the edits back), save anyway, or cancel.
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'

interface Props {
  fileName: string
  onReload(): void
  onOverwrite(): void
  onClose(): void
}

export default function ConflictDialog({ fileName, onReload, onOverwrite, onClose }: Props) {
  return (
    <Dialog open onClose={onClose} maxWidth="sm" aria-describedby="conflict-text">
      <DialogTitle>{fileName} changed on disk</DialogTitle>
      <DialogContent>
        <DialogContentText id="conflict-text">
          The file was changed outside the playground since you opened it. Saving now would overwrite those changes. Reload it to see them (Undo brings your
          version back), or save yours anyway.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button onClick={onReload}>Reload from disk</Button>
        <Button variant="contained" color="warning" onClick={onOverwrite}>
          Save anyway
        </Button>
      </DialogActions>
    </Dialog>
  )
}
