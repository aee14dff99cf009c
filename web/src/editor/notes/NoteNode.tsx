//! A sticky note on the canvas: Markdown shown safely, edited in place on double-click (or in
//! the inspector), resized by its corner when selected. Saved under `ui.notes`.
import Box from '@mui/material/Box'
import { NodeResizer, type Node, type NodeProps } from '@xyflow/react'
import { memo, useState } from 'react'
import type { Note } from '../../api/types'
import { useEditorStore } from '../useEditor'
import Markdown from './Markdown'

export type NoteFlowNode = Node<{ note: Note }, 'note'>

export const NOTE_COLOR = '#FFF59D'

function NoteNode({ data, selected }: NodeProps<NoteFlowNode>) {
  const { note } = data
  const store = useEditorStore()
  const [editing, setEditing] = useState(false)
  return (
    <>
      <NodeResizer
        isVisible={selected}
        minWidth={120}
        minHeight={60}
        onResizeEnd={(_, p) => {
          store.getState().updateNote(note.id, { x: Math.round(p.x), y: Math.round(p.y), width: Math.round(p.width), height: Math.round(p.height) })
        }}
      />
      <Box
        data-testid={`note-${note.id}`}
        aria-label="Note"
        role="note"
        onDoubleClick={() => setEditing(true)}
        sx={{
          width: '100%',
          height: '100%',
          overflow: 'auto',
          p: 1,
          bgcolor: note.color ?? NOTE_COLOR,
          color: '#222',
          borderRadius: 1,
          boxShadow: 2,
          fontSize: 12,
          '& p, & ul, & ol': { m: 0, mb: 0.5 },
          '& ul, & ol': { pl: 2.5 },
          '& code': { fontFamily: 'ui-monospace, monospace', bgcolor: 'rgba(0,0,0,0.08)', px: 0.25, borderRadius: 0.5 },
        }}
      >
        {editing ? (
          <Box
            component="textarea"
            className="nodrag nowheel"
            aria-label="Note text (Markdown)"
            autoFocus
            value={note.text}
            onChange={(e) => store.getState().updateNote(note.id, { text: e.target.value }, 'text')}
            onBlur={() => {
              setEditing(false)
              store.getState().seal()
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') (e.target as HTMLTextAreaElement).blur()
            }}
            sx={{ width: '100%', height: '100%', resize: 'none', border: 'none', outline: 'none', bgcolor: 'transparent', color: 'inherit', font: 'inherit' }}
          />
        ) : note.text.trim() === '' ? (
          <Box sx={{ color: 'rgba(0,0,0,0.5)', fontStyle: 'italic' }}>Double-click to write a note (Markdown)</Box>
        ) : (
          <Markdown text={note.text} />
        )}
      </Box>
    </>
  )
}

export default memo(NoteNode)
