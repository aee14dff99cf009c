import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import TextField from '@mui/material/TextField'
import { useState } from 'react'
import { openWorkflowText } from '../state/openWorkflow'
import { monoFont } from '../theme'

export default function PasteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [text, setText] = useState('')
  const submit = () => {
    if (!text.trim()) return
    onClose()
    void openWorkflowText(text, 'Pasted workflow')
    setText('')
  }
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Paste a workflow</DialogTitle>
      <DialogContent>
        <TextField
          label="Workflow JSON"
          value={text}
          onChange={(e) => setText(e.target.value)}
          multiline
          minRows={14}
          maxRows={24}
          fullWidth
          autoFocus
          placeholder='{ "name": "…", "steps": [ … ] }'
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: monoFont, fontSize: 12 } } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={!text.trim()}>
          Open
        </Button>
      </DialogActions>
    </Dialog>
  )
}
