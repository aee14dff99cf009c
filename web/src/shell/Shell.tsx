import Box from '@mui/material/Box'
import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import { useMemo, useRef } from 'react'
import { useApp } from '../app/AppContext'
import ChatPanel from '../chat/ChatPanel'
import { useFileDrop } from '../hooks/useFileDrop'
import { useLocationSync } from '../hooks/useLocationSync'
import { useRunWatchdog } from '../hooks/useRunWatchdog'
import { useStartup } from '../hooks/useStartup'
import { useThemeMode } from '../hooks/useThemeMode'
import RunsPanel from '../history/RunsPanel'
import InspectorPanel from '../inspector/InspectorPanel'
import LibraryPanel from '../library/LibraryPanel'
import RunBar from '../runbar/RunBar'
import AccessDenied from './AccessDenied'
import CenterPane from './CenterPane'
import DropOverlay from './DropOverlay'
import InspectorOverlay from './InspectorOverlay'
import PanelDrawer from './PanelDrawer'
import PresenterBanner from './PresenterBanner'
import { usePresenterStore } from './presenter'
import TopBar from './TopBar'
import { usePresenterKeys } from './usePresenterKeys'
import { useSidePanels } from './useSidePanels'
import { useAccessStore } from '../state/accessStore'
import { makeTheme } from '../theme'

/** The page: top bar, side panels, canvas and run bar, over the app `<App>` provides. */
export default function Shell() {
  const app = useApp()
  const [mode, toggleMode] = useThemeMode()
  const panels = useSidePanels()
  const { docked, presenting } = panels
  const theme = useMemo(() => makeTheme(mode, presenting), [mode, presenting])
  const togglePresenter = usePresenterStore((s) => s.toggle)
  const dragging = useFileDrop()
  const row = useRef<HTMLDivElement>(null)
  useStartup()
  useLocationSync()
  useRunWatchdog()
  usePresenterKeys()
  const denied = useAccessStore((s) => s.denied)

  if (denied)
    return (
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <AccessDenied />
      </ThemeProvider>
    )
  const drawerHost = () => row.current
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
        <TopBar
          mode={mode}
          onToggleMode={toggleMode}
          libraryOpen={panels.library}
          onToggleLibrary={panels.toggleLibrary}
          runsOpen={panels.runs}
          onToggleRuns={panels.toggleRuns}
          inspectorOpen={panels.inspector}
          onToggleInspector={panels.toggleInspector}
          chatOpen={panels.chat}
          onToggleChat={panels.toggleChat}
          presenting={presenting}
          onTogglePresenter={togglePresenter}
        />
        {presenting && <PresenterBanner />}
        <Box ref={row} sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
          {docked && panels.library && <LibraryPanel />}
          {docked && panels.runs && <RunsPanel />}
          <CenterPane />
          {docked && panels.chat && <ChatPanel />}
          {docked && panels.inspector && <InspectorPanel />}
          {!docked && (
            <>
              <PanelDrawer anchor="left" open={panels.library} onClose={panels.closeDrawer} container={drawerHost}>
                <LibraryPanel />
              </PanelDrawer>
              <PanelDrawer anchor="left" open={panels.runs} onClose={panels.closeDrawer} container={drawerHost}>
                <RunsPanel />
              </PanelDrawer>
              {!presenting && (
                <>
                  <PanelDrawer anchor="right" open={panels.inspector} onClose={panels.closeDrawer} container={drawerHost}>
                    <InspectorPanel />
                  </PanelDrawer>
                  <PanelDrawer anchor="right" open={panels.chat === true} onClose={app.chat.close} container={drawerHost}>
                    <ChatPanel />
                  </PanelDrawer>
                </>
              )}
            </>
          )}
        </Box>
        <RunBar />
      </Box>
      {presenting && <InspectorOverlay />}
      {dragging && <DropOverlay />}
    </ThemeProvider>
  )
}
