//! The Chat panel's header: what answers (the provider and model), the conversations, a new one,
//! and the choices the next question is asked with — the mode, the model, and whether agent mode
//! may change the knowledge base.
import Add from '@mui/icons-material/Add'
import Close from '@mui/icons-material/Close'
import History from '@mui/icons-material/History'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import type { ChatMode } from '../api/types'
import { useApp } from '../app/AppContext'
import AllowWritesSwitch from './AllowWritesSwitch'
import { inProgress } from './chatReducer'
import { useChatStore } from './chatStore'

export default function ChatHeader() {
  const { chat } = useApp()
  const config = useChatStore((s) => s.config)
  const browsing = useChatStore((s) => s.browsing)
  const mode = useChatStore((s) => s.mode)
  const model = useChatStore((s) => s.model)
  const busy = useChatStore((s) => inProgress(s.turns[s.turns.length - 1]))
  const set = useChatStore((s) => s.set)
  const models = config?.models ?? []
  const agentBlocked = config !== undefined && !config.supportsTools

  return (
    <Box sx={{ px: 1.5, pt: 1, pb: 1, borderBottom: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Typography component="h2" sx={{ fontWeight: 700, fontSize: 14 }}>
          Chat
        </Typography>
        <Typography variant="caption" noWrap title={config?.label} data-testid="chat-model-label" sx={{ color: 'text.secondary', flex: 1, minWidth: 0, ml: 1 }}>
          {config?.label}
        </Typography>
        <Tooltip title={browsing ? 'Back to the conversation' : 'Conversations'}>
          <IconButton size="small" aria-label="Conversations" aria-pressed={browsing} onClick={() => set({ browsing: !browsing })}>
            <History fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={busy ? 'Stop the answer first' : 'New conversation'}>
          <span>
            <IconButton size="small" aria-label="New conversation" disabled={busy} onClick={chat.newChat}>
              <Add fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title="Close the chat panel">
          <IconButton size="small" aria-label="Close chat" onClick={chat.close}>
            <Close fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {config?.available && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={mode}
            aria-label="Mode"
            onChange={(_, next: ChatMode | null) => {
              if (next) set({ mode: next })
            }}
          >
            <Tooltip title="Search the knowledge base, then answer from what was found">
              <ToggleButton value="pipeline" sx={{ py: 0.25, px: 1, textTransform: 'none' }}>
                Pipeline
              </ToggleButton>
            </Tooltip>
            <Tooltip
              title={
                agentBlocked
                  ? `${config.model} cannot call tools: configure a tool-capable model (Claude, GPT-4o, llama3.1) for agent mode`
                  : 'The model calls vai’s tools until it can answer'
              }
            >
              <span>
                <ToggleButton value="agent" disabled={agentBlocked} sx={{ py: 0.25, px: 1, textTransform: 'none' }}>
                  Agent
                </ToggleButton>
              </span>
            </Tooltip>
          </ToggleButtonGroup>
          <TextField
            select
            label="Model"
            value={model && models.includes(model) ? model : (models[0] ?? '')}
            onChange={(e) => set({ model: e.target.value })}
            sx={{ flex: 1, minWidth: 0 }}
            slotProps={{ select: { SelectDisplayProps: { style: { paddingTop: 4, paddingBottom: 4 } } } }}
          >
            {models.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      )}
      {config?.available && mode === 'agent' && <AllowWritesSwitch />}
    </Box>
  )
}
