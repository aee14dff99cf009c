//! The conversation: every turn, oldest first, kept scrolled to the newest while it streams (unless
//! the reader scrolled up), and the dialog a source opens in.
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useCallback, useLayoutEffect, useRef, useState } from 'react'
import type { ChatSource } from '../api/types'
import { useChatStore } from './chatStore'
import ChatTurnView from './ChatTurnView'
import SourceDialog from './SourceDialog'

/** How close to the bottom (px) still counts as reading the newest. */
const FOLLOW_SLACK = 48

export default function ChatThread() {
  const turns = useChatStore((s) => s.turns)
  const loading = useChatStore((s) => s.loading)
  const db = useChatStore((s) => s.config?.db)
  const collection = useChatStore((s) => s.config?.collection)
  const [source, setSource] = useState<ChatSource>()
  const scroller = useRef<HTMLDivElement>(null)
  const following = useRef(true)
  const openSource = useCallback((s: ChatSource) => setSource(s), [])

  useLayoutEffect(() => {
    const el = scroller.current
    if (el && following.current) el.scrollTop = el.scrollHeight
  }, [turns])

  return (
    <Box
      ref={scroller}
      role="log"
      aria-label="Conversation"
      aria-busy={loading}
      onScroll={(e) => {
        const el = e.currentTarget
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK
      }}
      sx={{ flex: 1, minHeight: 0, overflow: 'auto', px: 1.5, py: 1.5, display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      {loading && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Opening the conversation…
        </Typography>
      )}
      {!loading && turns.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Ask a question about the knowledge base{db ? ` (${[db, collection].filter(Boolean).join('.')})` : ''}. Answers cite the documents they come from.
        </Typography>
      )}
      {!loading && turns.map((t) => <ChatTurnView key={t.key} turn={t} onSource={openSource} />)}
      <SourceDialog source={source} onClose={() => setSource(undefined)} />
    </Box>
  )
}
