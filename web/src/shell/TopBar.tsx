import DarkMode from '@mui/icons-material/DarkMode'
import Forum from '@mui/icons-material/Forum'
import History from '@mui/icons-material/History'
import LightMode from '@mui/icons-material/LightMode'
import ViewSidebar from '@mui/icons-material/ViewSidebar'
import MenuOpen from '@mui/icons-material/MenuOpen'
import Slideshow from '@mui/icons-material/Slideshow'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import type { Theme } from '@mui/material/styles'
import type { Mode } from '../theme'
import ConfigChip from './ConfigChip'
import ConnectionChip from './ConnectionChip'
import { TOP_BAR_HEIGHT } from './shellLayout'
import WorkflowTitle from './WorkflowTitle'

interface Props {
  mode: Mode
  onToggleMode(): void
  libraryOpen: boolean
  onToggleLibrary(): void
  runsOpen: boolean
  onToggleRuns(): void
  inspectorOpen: boolean
  onToggleInspector(): void
  /** Absent in presenter mode, which has no chat. */
  chatOpen?: boolean
  onToggleChat(): void
  presenting: boolean
  onTogglePresenter(): void
}

export default function TopBar(props: Props) {
  const {
    mode,
    onToggleMode,
    libraryOpen,
    onToggleLibrary,
    runsOpen,
    onToggleRuns,
    inspectorOpen,
    onToggleInspector,
    chatOpen,
    onToggleChat,
    presenting,
    onTogglePresenter,
  } = props
  return (
    <Box component="header" sx={headerSx}>
      <Tooltip title={libraryOpen ? 'Hide library' : 'Show library'}>
        <IconButton size="small" aria-label={libraryOpen ? 'Hide library' : 'Show library'} aria-pressed={libraryOpen} onClick={onToggleLibrary}>
          <MenuOpen fontSize="small" sx={{ transform: libraryOpen ? 'none' : 'scaleX(-1)' }} />
        </IconButton>
      </Tooltip>
      <Tooltip title={runsOpen ? 'Hide runs' : 'Show runs: past runs of this workflow'}>
        <IconButton size="small" aria-label={runsOpen ? 'Hide runs' : 'Show runs'} aria-pressed={runsOpen} onClick={onToggleRuns}>
          <History fontSize="small" />
        </IconButton>
      </Tooltip>
      <Typography component="h1" sx={{ fontWeight: 700, fontSize: 15, letterSpacing: 0.3 }}>
        vai playground
      </Typography>
      <WorkflowTitle />
      <Box sx={{ flex: 1 }} />
      <ConnectionChip />
      <ConfigChip />
      {chatOpen !== undefined && (
        <Tooltip title={chatOpen ? 'Hide chat' : 'Chat with the knowledge base'}>
          <IconButton size="small" aria-label={chatOpen ? 'Hide chat' : 'Show chat'} aria-pressed={chatOpen} onClick={onToggleChat}>
            <Forum fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={presenting ? 'Leave presenter mode (P or Esc)' : 'Presenter mode (P)'}>
        <IconButton
          size="small"
          aria-label="Presenter mode"
          aria-keyshortcuts="P"
          aria-pressed={presenting}
          onClick={onTogglePresenter}
          color={presenting ? 'primary' : 'default'}
        >
          <Slideshow fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={mode === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}>
        <IconButton size="small" aria-label="Toggle light/dark theme" onClick={onToggleMode}>
          {mode === 'dark' ? <LightMode fontSize="small" /> : <DarkMode fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Tooltip title={inspectorOpen ? 'Hide inspector' : 'Show inspector'}>
        <IconButton size="small" aria-label={inspectorOpen ? 'Hide inspector' : 'Show inspector'} aria-pressed={inspectorOpen} onClick={onToggleInspector}>
          <ViewSidebar fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  )
}

// Above the drawers (and their backdrop), so the toggle that opened one can close it.
const headerSx = {
  display: 'flex',
  alignItems: 'center',
  gap: 1,
  px: 1,
  height: TOP_BAR_HEIGHT,
  borderBottom: 1,
  borderColor: 'divider',
  flexShrink: 0,
  position: 'relative',
  zIndex: (theme: Theme) => theme.zIndex.drawer + 1,
  bgcolor: 'background.default',
} as const
