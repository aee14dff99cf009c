//! "Save as test case" on a completed run of a saved file workflow: writes
//! `tests/<workflow>.<case>.test.json` beside it (the run's inputs, provider outputs as mocks,
//! expectations on the output) and shows where.
import Science from '@mui/icons-material/Science'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { errorInfo } from '../api/client'
import { useApp } from '../app/AppContext'
import { useEditSession } from '../editor/editSession'
import { useWorkflowStore } from '../state/workflowStore'
import { monoFont } from '../theme'

const CASE_NAME = /^[A-Za-z0-9_-]{1,64}$/

export default function SaveTestCase({ runId }: { runId: string }) {
  const { api } = useApp()
  const file = useWorkflowStore((s) => s.current?.id?.startsWith('file:') === true)
  const unsaved = useEditSession((s) => s.dirty)
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('basic')
  const [error, setError] = useState<string>()
  const [conflict, setConflict] = useState(false)
  const [saved, setSaved] = useState<string>()
  const [busy, setBusy] = useState(false)
  const why = !file
    ? 'Save the workflow as a file first: test cases live beside it'
    : unsaved
      ? 'Save your changes and run again first: the test must match the file'
      : ''

  const submit = async (overwrite: boolean) => {
    if (!CASE_NAME.test(name)) {
      setError('Letters, digits, - and _ only (at most 64).')
      return
    }
    setBusy(true)
    try {
      const result = await api.saveTestCase(runId, overwrite ? { name, overwrite } : { name })
      setSaved(result.path)
      setError(undefined)
      setConflict(false)
    } catch (e) {
      const { code, message } = errorInfo(e)
      setError(message)
      setConflict(code === 'CONFLICT')
    } finally {
      setBusy(false)
    }
  }
  const close = () => {
    setOpen(false)
    setSaved(undefined)
    setError(undefined)
    setConflict(false)
  }

  return (
    <>
      <Tooltip title={why}>
        <span>
          <Button size="small" startIcon={<Science />} disabled={Boolean(why)} onClick={() => setOpen(true)} sx={{ mt: 0.5, px: 0 }}>
            Save as test case
          </Button>
        </span>
      </Tooltip>
      {open && (
        <Dialog open onClose={close} fullWidth maxWidth="xs">
          <DialogTitle>Save as test case</DialogTitle>
          <DialogContent>
            {saved ? (
              <DialogContentText>
                Saved{' '}
                <Typography component="span" sx={{ fontFamily: monoFont }}>
                  {saved}
                </Typography>
                . Edit its expectations as you like;{' '}
                <Typography component="span" sx={{ fontFamily: monoFont }}>
                  vai workflow test
                </Typography>{' '}
                runs it.
              </DialogContentText>
            ) : (
              <>
                <DialogContentText sx={{ mb: 2 }}>
                  The run’s inputs, each provider step’s output as a mock, and its final output as expectations.
                </DialogContentText>
                <TextField
                  label="Case name"
                  value={name}
                  autoFocus
                  fullWidth
                  disabled={busy}
                  onChange={(e) => {
                    setName(e.target.value)
                    setError(undefined)
                    setConflict(false)
                  }}
                  error={Boolean(error)}
                  helperText={error}
                />
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{saved ? 'Close' : 'Cancel'}</Button>
            {!saved && (
              <Button variant="contained" color={conflict ? 'warning' : 'primary'} disabled={busy} onClick={() => void submit(conflict)}>
                {conflict ? 'Replace' : 'Save'}
              </Button>
            )}
          </DialogActions>
        </Dialog>
      )}
    </>
  )
}
