//! Save as: asks for a file name (written into the directory `vai playground` was started in),
//! checks it as the server will, and offers to replace a file that exists.
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import InputAdornment from '@mui/material/InputAdornment'
import TextField from '@mui/material/TextField'
import { useState } from 'react'
import type { SaveOutcome } from '../store/fileActions'
import { fileNameProblem, stemOf, SUFFIX } from '../store/fileName'

interface Props {
  initial: string
  onSave(fileName: string, overwrite: boolean): Promise<SaveOutcome>
  onClose(): void
}

export default function SaveAsDialog({ initial, onSave, onClose }: Props) {
  const [name, setName] = useState(initial)
  const [error, setError] = useState<string>()
  const [exists, setExists] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async (overwrite: boolean) => {
    const problem = fileNameProblem(name)
    if (problem) {
      setError(problem)
      return
    }
    setBusy(true)
    const outcome = await onSave(stemOf(name), overwrite)
    setBusy(false)
    if (outcome.status === 'saved') onClose()
    else if (outcome.status === 'exists' || outcome.status === 'conflict') setExists(outcome.message)
    else if (outcome.status === 'error') setError(outcome.message)
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Save as</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>The file is written into the folder the playground was started in.</DialogContentText>
        <TextField
          label="File name"
          value={name}
          autoFocus
          fullWidth
          disabled={busy}
          onChange={(e) => {
            setName(e.target.value)
            setError(undefined)
            setExists(undefined)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              void submit(false)
            }
          }}
          error={Boolean(error)}
          helperText={error ?? exists}
          slotProps={{ input: { endAdornment: <InputAdornment position="end">{SUFFIX}</InputAdornment> } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {exists ? (
          <Button variant="contained" color="warning" disabled={busy} onClick={() => void submit(true)}>
            Replace
          </Button>
        ) : (
          <Button variant="contained" disabled={busy} onClick={() => void submit(false)}>
            Save
          </Button>
        )}
      </DialogActions>
    </Dialog>
  )
}
