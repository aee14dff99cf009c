//! The small icon in a node's corner for its run status (nothing while idle).
import Block from '@mui/icons-material/Block'
import Cancel from '@mui/icons-material/Cancel'
import CheckCircle from '@mui/icons-material/CheckCircle'
import ErrorIcon from '@mui/icons-material/Error'
import HourglassEmpty from '@mui/icons-material/HourglassEmpty'
import PanTool from '@mui/icons-material/PanTool'
import Replay from '@mui/icons-material/Replay'
import CircularProgress from '@mui/material/CircularProgress'
import type { NodeStatus } from './useStepRun'

const SIZE = { fontSize: 16 }

export default function StatusIcon({ status }: { status: NodeStatus }) {
  switch (status) {
    case 'idle':
      return null
    case 'pending':
      return <HourglassEmpty sx={{ ...SIZE, color: 'text.secondary' }} titleAccess="pending" />
    case 'running':
      return <CircularProgress size={13} thickness={6} aria-label="running" />
    case 'retrying':
      return <Replay sx={{ ...SIZE, color: 'warning.main' }} titleAccess="retrying" />
    case 'completed':
      return <CheckCircle sx={{ ...SIZE, color: 'success.main' }} titleAccess="completed" />
    case 'skipped':
      return <Block sx={{ ...SIZE, color: 'text.secondary' }} titleAccess="skipped" />
    case 'failed':
      return <ErrorIcon sx={{ ...SIZE, color: 'error.main' }} titleAccess="failed" />
    case 'cancelled':
      return <Cancel sx={{ ...SIZE, color: 'text.disabled' }} titleAccess="cancelled" />
    case 'waiting':
      return <PanTool sx={{ ...SIZE, color: 'warning.main' }} titleAccess="Waiting for a person" />
  }
}
