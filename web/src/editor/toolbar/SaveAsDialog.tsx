//! Save as: asks for a file name (written into the directory `vai playground` was started in),
//! checks it as the server will, and offers to replace a file that exists. An untitled workflow
//! is offered a name too, which the file name follows until it is typed in itself; left empty,
//! the workflow is named after its file, so it is never listed as "Untitled workflow".
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import InputAdornment from '@mui/material/InputAdornment'
import TextField from '@mui/material/TextField'
import { useState, type KeyboardEvent } from 'react'
import { fileNameOf } from '../../state/workflowFile'
import { fileNameProblem, isUntitled, stemOf, suggestFileName, SUFFIX } from '../store/fileName'
import { useEditorStore } from '../useEditor'

interface Props {
  /** `saved` is true once the file was written. */
  onClose(saved: boolean): void
}

export default function SaveAsDialog({ onClose }: Props) {
  const store = useEditorStore()
  const [start] = useState(() => {
    const { doc, source } = store.getState()
    const file = fileNameOf(source.id)
    return { untitled: isUntitled(doc.name), file: file ? stemOf(file) : suggestFileName(doc.name) }
  })
  const [workflowName, setWorkflowName] = useState('')
  const [fileName, setFileName] = useState(start.file)
  const [fileTyped, setFileTyped] = useState(false)
  const [error, setError] = useState<string>()
  const [exists, setExists] = useState<string>()
  const [busy, setBusy] = useState(false)

  const edited = () => {
    setError(undefined)
    setExists(undefined)
  }

  const submit = async (overwrite: boolean) => {
    const problem = fileNameProblem(fileName)
    if (problem) {
      setError(problem)
      return
    }
    setBusy(true)
    const stem = stemOf(fileName)
    const outcome = await store.getState().saveAs(stem, { overwrite, name: start.untitled ? workflowName.trim() || stem : undefined })
    setBusy(false)
    if (outcome.status === 'saved') onClose(true)
    else if (outcome.status === 'exists' || outcome.status === 'conflict') setExists(outcome.message)
    else if (outcome.status === 'error') setError(outcome.message)
  }
  const onEnter = (e: KeyboardEvent) => {
    if (e.key !== 'Enter') return
    e.preventDefault()
    void submit(false)
  }

  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="xs">
      <DialogTitle>Save as</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>The file is written into the folder the playground was started in.</DialogContentText>
        {start.untitled && (
          <TextField
            label="Workflow name"
            value={workflowName}
            autoFocus
            fullWidth
            disabled={busy}
            placeholder="Named after the file when left empty"
            helperText="Shown in the title and the library."
            sx={{ mb: 2 }}
            slotProps={{ inputLabel: { shrink: true } }}
            onChange={(e) => {
              setWorkflowName(e.target.value)
              if (!fileTyped) setFileName(e.target.value.trim() ? suggestFileName(e.target.value) : start.file)
              edited()
            }}
            onKeyDown={onEnter}
          />
        )}
        <TextField
          label="File name"
          value={fileName}
          autoFocus={!start.untitled}
          fullWidth
          disabled={busy}
          onChange={(e) => {
            setFileName(e.target.value)
            setFileTyped(true)
            edited()
          }}
          onKeyDown={onEnter}
          error={Boolean(error)}
          helperText={error ?? exists}
          slotProps={{ input: { endAdornment: <InputAdornment position="end">{SUFFIX}</InputAdornment> } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>Cancel</Button>
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
