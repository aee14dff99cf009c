//! "Paste JSON": text that is not a workflow (not JSON, with the line and column; too large; not
//! an object with steps) is refused here, with the dialog and the text kept to be corrected.
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import TextField from '@mui/material/TextField'
import { useState } from 'react'
import { useApp } from '../app/AppContext'
import { checkImport } from '../state/checkImport'
import { monoFont } from '../theme'

export default function PasteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const app = useApp()
  const [text, setText] = useState('')
  const [error, setError] = useState<string>()
  const [checking, setChecking] = useState(false)
  const submit = async () => {
    if (!text.trim()) return
    setChecking(true)
    const checked = await checkImport({ planText: (pasted) => app.api.plan({ text: pasted }) }, text, 'The pasted text')
    setChecking(false)
    if ('error' in checked) {
      setError(checked.error)
      return
    }
    onClose()
    void app.open.text(text, 'Pasted workflow')
    setText('')
  }
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Paste a workflow</DialogTitle>
      <DialogContent>
        <TextField
          label="Workflow JSON"
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setError(undefined)
          }}
          multiline
          minRows={14}
          maxRows={24}
          fullWidth
          autoFocus
          error={error !== undefined}
          placeholder='{ "name": "…", "steps": [ … ] }'
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: monoFont, fontSize: 12 } } }}
        />
        {error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={!text.trim() || checking}>
          Open
        </Button>
      </DialogActions>
    </Dialog>
  )
}
