//! The kept conversations, newest first: open one to continue it, delete one (asked twice).
import DeleteForever from '@mui/icons-material/DeleteForever'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import type { ChatSessionSummary } from '../api/types'
import { useApp } from '../app/AppContext'
import { inProgress } from './chatReducer'
import { useChatStore } from './chatStore'

function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

function Row({ session, current, busy }: { session: ChatSessionSummary; current: boolean; busy: boolean }) {
  const { chat } = useApp()
  const [confirming, setConfirming] = useState(false)
  const turns = `${session.turnCount} ${session.turnCount === 1 ? 'question' : 'questions'}`
  return (
    <ListItem
      disablePadding
      secondaryAction={
        confirming ? (
          <Box sx={{ display: 'flex', gap: 0.5 }}>
            <Button size="small" color="error" onClick={() => void chat.deleteSession(session.id)}>
              Delete
            </Button>
            <Button size="small" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </Box>
        ) : (
          <Tooltip title={current && busy ? 'Stop the answer first' : 'Delete this conversation'}>
            <span>
              <IconButton edge="end" size="small" aria-label={`Delete “${session.title}”`} disabled={current && busy} onClick={() => setConfirming(true)}>
                <DeleteForever fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        )
      }
    >
      <ListItemButton selected={current} disabled={busy} onClick={() => void chat.openSession(session.id)} sx={{ pr: confirming ? 16 : 6 }}>
        <ListItemText
          primary={session.title}
          secondary={`${turns} · ${when(session.updatedAt)}`}
          slotProps={{ primary: { noWrap: true, title: session.title }, secondary: { noWrap: true } }}
        />
      </ListItemButton>
    </ListItem>
  )
}

export default function SessionList() {
  const sessions = useChatStore((s) => s.sessions)
  const error = useChatStore((s) => s.sessionsError)
  const current = useChatStore((s) => s.sessionId)
  const busy = useChatStore((s) => inProgress(s.turns[s.turns.length - 1]))
  return (
    <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
      {error && (
        <Typography role="status" variant="body2" sx={{ p: 2, color: 'error.main' }}>
          Cannot list the conversations: {error}
        </Typography>
      )}
      {!error && sessions.length === 0 && (
        <Typography variant="body2" sx={{ p: 2, color: 'text.secondary' }}>
          No conversations yet. Ask a question and it is kept here.
        </Typography>
      )}
      {busy && sessions.length > 0 && (
        <Typography variant="caption" component="p" sx={{ px: 2, pt: 1, color: 'text.secondary' }}>
          An answer is being written: stop it to switch conversations.
        </Typography>
      )}
      <List dense aria-label="Conversations">
        {sessions.map((s) => (
          <Row key={s.id} session={s} current={s.id === current} busy={busy} />
        ))}
      </List>
    </Box>
  )
}
