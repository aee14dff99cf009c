//! The tool calls of an agent-mode answer, in the order they were made: what each did, how long
//! it took and how it went; each opens to the arguments it ran with and the output it returned.
//! The inspector shows an `agent` step's calls with it too (their outputs are not kept).
import CheckCircle from '@mui/icons-material/CheckCircle'
import ErrorIcon from '@mui/icons-material/Error'
import ExpandLess from '@mui/icons-material/ExpandLess'
import ExpandMore from '@mui/icons-material/ExpandMore'
import Box from '@mui/material/Box'
import ButtonBase from '@mui/material/ButtonBase'
import CircularProgress from '@mui/material/CircularProgress'
import Collapse from '@mui/material/Collapse'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import JsonTree from '../inspector/JsonTree'
import type { ToolCallView } from './chatReducer'
import { duration } from './format'

function Icon({ call }: { call: ToolCallView }) {
  if (!call.call) return <CircularProgress size={12} thickness={6} aria-label="running" />
  return call.call.ok ? (
    <CheckCircle sx={{ fontSize: 14, color: 'success.main' }} titleAccess="done" />
  ) : (
    <ErrorIcon sx={{ fontSize: 14, color: 'error.main' }} titleAccess="failed" />
  )
}

function Call({ call, withOutput }: { call: ToolCallView; withOutput: boolean }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const done = call.call
  return (
    <Box component="li" sx={{ listStyle: 'none', borderLeft: 2, borderColor: 'divider', pl: 1, py: 0.25 }}>
      <ButtonBase
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        sx={{ display: 'flex', alignItems: 'center', gap: 0.75, width: '100%', justifyContent: 'flex-start', textAlign: 'left', borderRadius: 1 }}
      >
        <Icon call={call} />
        <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap title={call.label}>
          {call.label}
        </Typography>
        {done && (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {duration(done.durationMs)}
          </Typography>
        )}
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ButtonBase>
      {done && (
        <Typography variant="caption" component="p" sx={{ color: done.ok ? 'text.secondary' : 'error.main', pl: 2.5 }}>
          {done.summary}
        </Typography>
      )}
      <Collapse in={open} id={id} unmountOnExit>
        <Box sx={{ pl: 2.5, py: 0.5 }}>
          <Typography variant="overline" component="h4" sx={{ color: 'text.secondary', lineHeight: 1.8 }}>
            Arguments · {call.name}
          </Typography>
          <JsonTree value={call.arguments} />
          {withOutput && (
            <Typography variant="overline" component="h4" sx={{ color: 'text.secondary', lineHeight: 1.8 }}>
              Output
            </Typography>
          )}
          {!withOutput ? null : !done ? (
            <Typography variant="caption">Running…</Typography>
          ) : done.output !== undefined ? (
            <JsonTree value={done.output} openDepth={1} />
          ) : (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {done.ok ? 'Not kept: larger than 16 KB (the summary above says what it held).' : done.summary}
            </Typography>
          )}
        </Box>
      </Collapse>
    </Box>
  )
}

/** `withOutputs`: the calls carry what they returned (a chat turn's do, an agent step's do not). */
export default function ToolCallTimeline({ calls, withOutputs = true }: { calls: ToolCallView[]; withOutputs?: boolean }) {
  if (calls.length === 0) return null
  return (
    <Box component="ol" aria-label="Tool calls" sx={{ m: 0, p: 0, my: 0.5, display: 'flex', flexDirection: 'column', gap: 0.25 }}>
      {calls.map((c) => (
        <Call key={c.id} call={c} withOutput={withOutputs} />
      ))}
    </Box>
  )
}
