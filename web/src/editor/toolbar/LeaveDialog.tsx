//! The unsaved-changes guard: leaving the document (another workflow, back/forward, Done) with
//! unsaved changes asks first — save them (under a file name, when there is none yet), discard
//! them, or keep editing. A save that fails keeps the question open and says why.
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { useState } from 'react'
import { useEditSession } from '../editSession'
import { useEditor, useEditorStore } from '../useEditor'
import SaveAsDialog from './SaveAsDialog'

export default function LeaveDialog() {
  const store = useEditorStore()
  const leaving = useEditSession((s) => s.leaving)
  const name = useEditor((s) => s.doc.name || s.source.label)
  const [naming, setNaming] = useState(false)
  const [saving, setSaving] = useState(false)
  const [failed, setFailed] = useState<string>()
  if (!leaving) return null

  const answer = (go: boolean) => {
    setFailed(undefined)
    leaving(go)
  }
  const save = async () => {
    setSaving(true)
    setFailed(undefined)
    const outcome = await store.getState().save()
    setSaving(false)
    if (outcome.status === 'saved') answer(true)
    else if (outcome.status === 'needs-name') setNaming(true)
    else setFailed(`Not saved: ${outcome.message}`)
  }

  if (naming) {
    return (
      <SaveAsDialog
        onClose={(saved) => {
          setNaming(false)
          if (saved) answer(true)
        }}
      />
    )
  }
  return (
    <Dialog open onClose={() => answer(false)} maxWidth="xs">
      <DialogTitle>Save changes before leaving?</DialogTitle>
      <DialogContent>
        <DialogContentText>“{name}” has changes that are not saved. Discarding them cannot be undone.</DialogContentText>
        {failed && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {failed}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => answer(false)}>Keep editing</Button>
        <Button color="error" disabled={saving} onClick={() => answer(true)}>
          Discard changes
        </Button>
        <Button autoFocus variant="contained" disabled={saving} onClick={() => void save()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  )
}
