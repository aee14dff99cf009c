import Box from '@mui/material/Box'
import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import { useMemo } from 'react'
import { closeChat, openChat } from './chat/chatActions'
import ChatPanel from './chat/ChatPanel'
import { useChatStore } from './chat/chatStore'
import { useFileDrop } from './hooks/useFileDrop'
import { useLocationSync } from './hooks/useLocationSync'
import { useRunWatchdog } from './hooks/useRunWatchdog'
import { useStartup } from './hooks/useStartup'
import { useStoredState } from './hooks/useStoredState'
import { useThemeMode } from './hooks/useThemeMode'
import InspectorPanel from './inspector/InspectorPanel'
import LibraryPanel from './library/LibraryPanel'
import RunBar from './runbar/RunBar'
import AccessDenied from './shell/AccessDenied'
import CenterPane from './shell/CenterPane'
import DropOverlay from './shell/DropOverlay'
import TopBar from './shell/TopBar'
import { useAccessStore } from './state/accessStore'
import { makeTheme } from './theme'

export default function App() {
  const [mode, toggleMode] = useThemeMode()
  const theme = useMemo(() => makeTheme(mode), [mode])
  const [libraryOpen, setLibraryOpen] = useStoredState('vai.panel.library', true)
  const [inspectorOpen, setInspectorOpen] = useStoredState('vai.panel.inspector', true)
  const dragging = useFileDrop()
  useStartup()
  useLocationSync()
  useRunWatchdog()
  const denied = useAccessStore((s) => s.denied)
  const chatOpen = useChatStore((s) => s.open)

  if (denied)
    return (
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <AccessDenied />
      </ThemeProvider>
    )
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
        <TopBar
          mode={mode}
          onToggleMode={toggleMode}
          libraryOpen={libraryOpen}
          onToggleLibrary={() => setLibraryOpen(!libraryOpen)}
          inspectorOpen={inspectorOpen}
          onToggleInspector={() => setInspectorOpen(!inspectorOpen)}
          chatOpen={chatOpen}
          onToggleChat={() => (chatOpen ? closeChat() : openChat())}
        />
        <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
          {libraryOpen && <LibraryPanel />}
          <CenterPane />
          {chatOpen && <ChatPanel />}
          {inspectorOpen && <InspectorPanel />}
        </Box>
        <RunBar />
      </Box>
      {dragging && <DropOverlay />}
    </ThemeProvider>
  )
}
