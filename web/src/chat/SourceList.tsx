//! The documents an answer may cite, under it: collapsed to a count, each listed with its number,
//! title and relevance; choosing one opens its text.
import ExpandLess from '@mui/icons-material/ExpandLess'
import ExpandMore from '@mui/icons-material/ExpandMore'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Collapse from '@mui/material/Collapse'
import List from '@mui/material/List'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import { useId, useState } from 'react'
import type { ChatSource } from '../api/types'
import { relevance } from './format'

export default function SourceList({ sources, onOpen }: { sources: ChatSource[]; onOpen(source: ChatSource): void }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  if (sources.length === 0) return null
  return (
    <Box sx={{ mt: 0.5 }}>
      <Button
        size="small"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        endIcon={open ? <ExpandLess /> : <ExpandMore />}
        sx={{ px: 0.5 }}
      >
        Sources ({sources.length})
      </Button>
      <Collapse in={open} id={id}>
        <List dense disablePadding aria-label="Sources">
          {sources.map((s) => (
            <ListItemButton key={s.index} onClick={() => onOpen(s)} sx={{ py: 0, borderRadius: 1 }}>
              <ListItemText
                primary={`[${s.index}] ${s.title}`}
                secondary={[s.score !== undefined ? `relevance ${relevance(s.score)}` : undefined, s.collection].filter(Boolean).join(' · ') || undefined}
                slotProps={{ primary: { noWrap: true, title: s.title } }}
              />
            </ListItemButton>
          ))}
        </List>
      </Collapse>
    </Box>
  )
}
