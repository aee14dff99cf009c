import Add from '@mui/icons-material/Add'
import ContentPaste from '@mui/icons-material/ContentPaste'
import FileOpen from '@mui/icons-material/FileOpen'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useRef, useState } from 'react'
import { confirmLeave, startEditing, stopEditing } from '../editor/editSession'
import { openFile } from './openFile'
import PasteDialog from './PasteDialog'

export default function LibraryActions() {
  const input = useRef<HTMLInputElement>(null)
  const [pasting, setPasting] = useState(false)
  const createNew = async () => {
    if (!(await confirmLeave())) return
    stopEditing(true)
    await startEditing({ kind: 'new' })
  }
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button variant="contained" startIcon={<Add />} onClick={() => void createNew()} sx={{ flexBasis: '100%' }}>
        New workflow
      </Button>
      <Button variant="outlined" startIcon={<FileOpen />} onClick={() => input.current?.click()} sx={{ flex: 1 }}>
        Open file
      </Button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        aria-label="Workflow file"
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file) void openFile(file)
        }}
      />
      <Button variant="outlined" startIcon={<ContentPaste />} onClick={() => setPasting(true)} sx={{ flex: 1 }}>
        Paste JSON
      </Button>
      <PasteDialog open={pasting} onClose={() => setPasting(false)} />
    </Box>
  )
}
