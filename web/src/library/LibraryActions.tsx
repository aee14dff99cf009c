import ContentPaste from '@mui/icons-material/ContentPaste'
import FileOpen from '@mui/icons-material/FileOpen'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import { useRef, useState } from 'react'
import { useApp } from '../app/AppContext'
import NewWorkflowMenu from './NewWorkflowMenu'
import { openFile } from './openFile'
import PasteDialog from './PasteDialog'

export default function LibraryActions() {
  const { open } = useApp()
  const input = useRef<HTMLInputElement>(null)
  const [pasting, setPasting] = useState(false)
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <NewWorkflowMenu />
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
          if (file) void openFile(open, file)
        }}
      />
      <Button variant="outlined" startIcon={<ContentPaste />} onClick={() => setPasting(true)} sx={{ flex: 1 }}>
        Paste JSON
      </Button>
      <PasteDialog open={pasting} onClose={() => setPasting(false)} />
    </Box>
  )
}
