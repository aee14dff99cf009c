//! A selected sticky note: its Markdown text (the keyboard way to write one) and Delete.
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { noteNodeId } from '../doc/model'
import { useEditor, useEditorStore } from '../useEditor'

export default function NotePanel({ id }: { id: string }) {
  const store = useEditorStore()
  const note = useEditor((s) => s.notes.find((n) => n.id === id))
  if (!note) return null
  return (
    <Box>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Note
      </Typography>
      <TextField
        label="Note text (Markdown)"
        value={note.text}
        onChange={(e) => store.getState().updateNote(id, { text: e.target.value }, 'text')}
        onBlur={() => store.getState().seal()}
        multiline
        minRows={6}
        fullWidth
        helperText="Paragraphs, lists (- or 1.), **bold**, *emphasis* and `code`. Saved in the file under ui.notes."
      />
      <Button sx={{ mt: 2 }} variant="outlined" color="error" onClick={() => void store.getState().deleteNodes([noteNodeId(id)])}>
        Delete note
      </Button>
    </Box>
  )
}
