//! Save (over the file, or Save as for anything read-only or new), the conflict dialog, and
//! export: Download and Copy give the same bytes Save writes.
import ContentCopy from '@mui/icons-material/ContentCopy'
import Download from '@mui/icons-material/Download'
import Save from '@mui/icons-material/Save'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import Tooltip from '@mui/material/Tooltip'
import { useEffect, useState } from 'react'
import { SAVE_EVENT } from '../canvas/useEditorKeys'
import { fileNameOf } from '../../state/workflowFile'
import { stemOf, suggestFileName, SUFFIX } from '../store/fileName'
import type { SaveOutcome } from '../store/fileActions'
import { useEditor, useEditorStore } from '../useEditor'
import ConflictDialog from './ConflictDialog'
import SaveAsDialog from './SaveAsDialog'

function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export default function SaveControls() {
  const store = useEditorStore()
  const dirty = useEditor((s) => s.dirty)
  const busy = useEditor((s) => s.busy)
  const fileName = useEditor((s) => fileNameOf(s.source.id))
  const readOnly = useEditor((s) => s.source.readOnly)
  const [asking, setAsking] = useState(false)
  const [conflict, setConflict] = useState<string>()

  const handle = (outcome: SaveOutcome) => {
    if (outcome.status === 'needs-name') setAsking(true)
    else if (outcome.status === 'conflict') setConflict(outcome.message)
  }
  const save = async () => handle(await store.getState().save())

  useEffect(() => {
    const onSave = () => void store.getState().save().then(handle)
    window.addEventListener(SAVE_EVENT, onSave)
    return () => window.removeEventListener(SAVE_EVENT, onSave)
  }, [store])

  const exportName = () => `${fileName ? stemOf(fileName) : suggestFileName(store.getState().doc.name)}${SUFFIX}`
  const download = async () => {
    const text = await store.getState().exportText()
    if (text !== undefined) downloadText(exportName(), text)
  }
  const copy = async () => {
    const text = await store.getState().exportText()
    if (text === undefined) return
    try {
      await navigator.clipboard.writeText(text)
      store.getState().setNotice({ tone: 'info', text: 'Copied the workflow JSON to the clipboard.' })
    } catch {
      store.getState().setNotice({ tone: 'error', text: 'The browser did not allow copying to the clipboard; use Download instead.' })
    }
  }

  return (
    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
      <Tooltip title={readOnly ? 'Save as a new file in the playground folder (Ctrl+S)' : `Save ${fileName} (Ctrl+S)`}>
        <span>
          <Button variant={dirty ? 'contained' : 'outlined'} startIcon={<Save />} disabled={busy} onClick={() => void save()}>
            Save
          </Button>
        </span>
      </Tooltip>
      <Button disabled={busy} onClick={() => setAsking(true)}>
        Save as…
      </Button>
      <Tooltip title="Download the workflow file">
        <IconButton size="small" aria-label="Download" onClick={() => void download()}>
          <Download fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Copy the workflow JSON">
        <IconButton size="small" aria-label="Copy workflow JSON" onClick={() => void copy()}>
          <ContentCopy fontSize="small" />
        </IconButton>
      </Tooltip>
      {asking && <SaveAsDialog onClose={() => setAsking(false)} />}
      {conflict !== undefined && (
        <ConflictDialog
          fileName={fileName ?? 'The file'}
          onClose={() => setConflict(undefined)}
          onReload={() => {
            setConflict(undefined)
            void store.getState().reloadFromDisk()
          }}
          onOverwrite={() => {
            setConflict(undefined)
            void store.getState().saveAnyway().then(handle)
          }}
        />
      )}
    </Box>
  )
}
