//! Where a question is written: Enter asks (Shift+Enter breaks the line), Stop ends the answer
//! being written. A question longer than the server answers is refused here, with its size, and
//! kept in the box to shorten.
import Send from '@mui/icons-material/Send'
import Stop from '@mui/icons-material/Stop'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import TextField from '@mui/material/TextField'
import { useState } from 'react'
import { useApp } from '../app/AppContext'
import { useConnectionStore } from '../state/connectionStore'
import { questionProblem } from './chatActions'
import { inProgress } from './chatReducer'
import { useChatStore } from './chatStore'

export default function ChatInput() {
  const { chat } = useApp()
  const [text, setText] = useState('')
  const config = useChatStore((s) => s.config)
  const busy = useChatStore((s) => inProgress(s.turns[s.turns.length - 1]))
  const canStop = useChatStore((s) => s.sessionId !== undefined)
  const loading = useChatStore((s) => s.loading)
  const connected = useConnectionStore((s) => s.state === 'open')
  const available = config?.available === true
  const problem = config ? questionProblem(text, config.maxQuestionBytes) : undefined
  const canAsk = available && connected && !busy && !loading && text.trim() !== '' && !problem

  const submit = () => {
    if (canAsk && chat.ask(text)) setText('')
  }

  let helper: string | undefined = problem
  if (!helper && available && !connected) helper = 'Reconnecting to the playground…'

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
      sx={{ p: 1.5, pt: 1, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 1, alignItems: 'flex-end' }}
    >
      <TextField
        label="Question"
        placeholder={available ? 'Ask about the knowledge base' : 'Chat needs an LLM'}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            submit()
          }
        }}
        disabled={!available}
        multiline
        maxRows={8}
        fullWidth
        error={problem !== undefined}
        helperText={helper}
      />
      {busy ? (
        <Button
          variant="outlined"
          color="warning"
          startIcon={<Stop />}
          onClick={chat.stopAnswer}
          disabled={!canStop}
          sx={{ flexShrink: 0, mb: helper ? 2.75 : 0 }}
        >
          Stop
        </Button>
      ) : (
        <Button type="submit" variant="contained" startIcon={<Send />} disabled={!canAsk} sx={{ flexShrink: 0, mb: helper ? 2.75 : 0 }}>
          Ask
        </Button>
      )}
    </Box>
  )
}
