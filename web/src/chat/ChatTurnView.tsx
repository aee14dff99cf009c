//! One question and its answer: the tool calls made for it, the answer as it streams in with a
//! line saying what the assistant is doing (then how it was made and the passages it quotes),
//! notices, how it ended (failed with its error, stopped, not asked), its sources, how it was
//! answered (mode, model, time, tokens and cost), and — when it called tools — "Open as workflow".
import AccountTree from '@mui/icons-material/AccountTree'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Typography from '@mui/material/Typography'
import { memo } from 'react'
import type { ChatSource } from '../api/types'
import { useApp } from '../app/AppContext'
import { inProgress, type TurnView } from './chatReducer'
import { usageLine } from '../usage/usage'
import { duration } from './format'
import SourceList from './SourceList'
import ToolCallTimeline from './ToolCallTimeline'
import TurnAnswer from './TurnAnswer'

/** What the turn is doing, for the state line. */
function stateLine(turn: TurnView): string {
  if (turn.phase === 'asking') return 'Sending…'
  return turn.state?.label ?? 'Starting…'
}

function footer(turn: TurnView): string {
  return [
    turn.mode === 'agent' ? 'agent' : turn.mode === 'pipeline' ? 'pipeline' : undefined,
    turn.model,
    turn.totalMs !== undefined ? duration(turn.totalMs) : undefined,
    usageLine(turn.usage) || undefined,
  ]
    .filter(Boolean)
    .join(' · ')
}

function ChatTurnView({ turn, onSource }: { turn: TurnView; onSource(source: ChatSource): void }) {
  const { chat } = useApp()
  const running = inProgress(turn)
  const exportable = !running && turn.turnId !== undefined && turn.toolCalls.some((c) => c.call?.ok)
  return (
    <Box
      component="article"
      aria-label={`Question: ${turn.question.slice(0, 80)}`}
      data-testid="chat-turn"
      data-phase={turn.phase}
      sx={{ display: 'flex', flexDirection: 'column', gap: 0.75 }}
    >
      <Box
        data-testid="chat-question"
        sx={{
          alignSelf: 'flex-end',
          maxWidth: '90%',
          bgcolor: 'action.selected',
          borderRadius: 2,
          px: 1.25,
          py: 0.75,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          maxHeight: 240,
          overflow: 'auto',
        }}
      >
        <Typography variant="body2" component="div">
          {turn.question}
        </Typography>
      </Box>
      <ToolCallTimeline calls={turn.toolCalls} />
      <TurnAnswer turn={turn} onSource={onSource} />
      {running && (
        <Box role="status" data-testid="chat-state" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
          <CircularProgress size={12} thickness={6} />
          <Typography variant="caption">{stateLine(turn)}</Typography>
        </Box>
      )}
      {turn.notices.map((n, i) => (
        <Alert key={i} severity="info" variant="outlined" sx={{ py: 0, fontSize: 12 }}>
          {n}
        </Alert>
      ))}
      {turn.phase === 'failed' && (
        <Alert severity="error" sx={{ py: 0, fontSize: 12 }}>
          {turn.answer ? 'The answer broke off: ' : 'No answer: '}
          {turn.error ?? 'it failed'}
        </Alert>
      )}
      {turn.phase === 'refused' && (
        <Alert severity="warning" sx={{ py: 0, fontSize: 12 }}>
          Not asked: {turn.error}
        </Alert>
      )}
      {turn.phase === 'cancelled' && (
        <Typography variant="caption" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
          Stopped{turn.answer ? '' : ' before any answer'}.
        </Typography>
      )}
      <SourceList sources={turn.sources} onOpen={onSource} />
      {(exportable || (!running && footer(turn))) && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="caption" sx={{ color: 'text.disabled', flex: 1 }}>
            {!running && footer(turn)}
          </Typography>
          {exportable && (
            <Button
              size="small"
              startIcon={<AccountTree fontSize="small" />}
              onClick={() => {
                if (turn.turnId) void chat.openAsWorkflow(turn.turnId)
              }}
            >
              Open as workflow
            </Button>
          )}
        </Box>
      )}
    </Box>
  )
}

export default memo(ChatTurnView)
