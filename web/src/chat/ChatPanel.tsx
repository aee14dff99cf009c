//! The Chat panel beside the canvas: ask the knowledge base, watch the answer stream in with its
//! sources and tool calls, go back to earlier conversations. When no LLM can answer it says how
//! to get one.
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { monoFont } from '../theme'
import ChatHeader from './ChatHeader'
import ChatInput from './ChatInput'
import { useChatStore } from './chatStore'
import ChatThread from './ChatThread'
import SessionList from './SessionList'

function Unavailable({ hint }: { hint?: string }) {
  return (
    <Alert severity="info" sx={{ m: 1.5, mb: 0 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        Chat needs an LLM
      </Typography>
      {hint && (
        <Typography variant="body2" sx={{ fontFamily: monoFont, fontSize: 12, mt: 0.5, overflowWrap: 'anywhere' }}>
          {hint}
        </Typography>
      )}
    </Alert>
  )
}

export default function ChatPanel() {
  const config = useChatStore((s) => s.config)
  const configError = useChatStore((s) => s.configError)
  const browsing = useChatStore((s) => s.browsing)
  const notice = useChatStore((s) => s.notice)
  const set = useChatStore((s) => s.set)
  return (
    <Box
      component="aside"
      aria-label="Chat"
      sx={{ width: 420, flexShrink: 0, borderLeft: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <ChatHeader />
      {configError && (
        <Alert severity="error" sx={{ m: 1.5, mb: 0 }}>
          {configError}
        </Alert>
      )}
      {config && !config.available && <Unavailable hint={config.hint} />}
      {notice && (
        <Alert severity={notice.tone} onClose={() => set({ notice: undefined })} sx={{ m: 1.5, mb: 0, fontSize: 12 }}>
          {notice.text}
        </Alert>
      )}
      {browsing ? <SessionList /> : <ChatThread />}
      <ChatInput />
    </Box>
  )
}
