//! Which side panels show, and how. On a wide screen (WIDE_MIN_PX and up) the library, runs,
//! chat and inspector sit beside the canvas, each opened or closed by its top-bar toggle and
//! remembered. Below that, and in presenter mode, they open one at a time as drawers over the
//! canvas, closed to begin with; presenter mode has no chat, and its inspector is a large overlay.
import useMediaQuery from '@mui/material/useMediaQuery'
import { useState } from 'react'
import { useApp } from '../app/AppContext'
import { useChatStore } from '../chat/chatStore'
import { useStoredState } from '../hooks/useStoredState'
import { useWorkflowStore } from '../state/workflowStore'
import { usePresenterStore } from './presenter'
import { WIDE_QUERY } from './shellLayout'

type Drawer = 'library' | 'runs' | 'inspector'

export interface SidePanels {
  /** Panels sit beside the canvas (else they are drawers over it). */
  docked: boolean
  presenting: boolean
  library: boolean
  /** The Runs panel (the run history). */
  runs: boolean
  inspector: boolean
  /** Undefined in presenter mode, which has no chat. */
  chat?: boolean
  toggleLibrary(): void
  toggleRuns(): void
  toggleInspector(): void
  toggleChat(): void
  closeDrawer(): void
}

export function useSidePanels(): SidePanels {
  // noSsr: read the width on the first render, so a small screen never flashes the wide layout.
  // Where media queries are unsupported (jsdom), the layout is the wide one.
  const wide = useMediaQuery(WIDE_QUERY, { noSsr: true, defaultMatches: true })
  const app = useApp()
  const presenting = usePresenterStore((s) => s.on)
  const inspecting = usePresenterStore((s) => s.inspecting)
  const inspect = usePresenterStore((s) => s.inspect)
  const chatOpen = useChatStore((s) => s.open)
  const workflowKey = useWorkflowStore((s) => s.current?.key)
  const [libraryOpen, setLibraryOpen] = useStoredState('vai.panel.library', true)
  const [runsOpen, setRunsOpen] = useStoredState('vai.panel.runs', false)
  const [inspectorOpen, setInspectorOpen] = useStoredState('vai.panel.inspector', true)
  const [drawer, setDrawer] = useState<Drawer>()
  const docked = wide && !presenting

  // Drawers start closed whenever the layout or the mode changes, and the library's closes once
  // it has opened a workflow (the point was to see it).
  const [seen, setSeen] = useState({ docked, presenting, workflowKey })
  const layoutChanged = seen.docked !== docked || seen.presenting !== presenting
  if (layoutChanged || seen.workflowKey !== workflowKey) {
    setSeen({ docked, presenting, workflowKey })
    if (layoutChanged || drawer === 'library') setDrawer(undefined)
  }

  const toggleDrawer = (which: Drawer) => {
    if (drawer !== which && chatOpen) app.chat.close()
    setDrawer(drawer === which ? undefined : which)
  }
  const chat = presenting ? undefined : chatOpen
  return {
    docked,
    presenting,
    library: docked ? libraryOpen : drawer === 'library',
    runs: docked ? runsOpen : drawer === 'runs',
    inspector: docked ? inspectorOpen : presenting ? inspecting : drawer === 'inspector',
    chat,
    toggleLibrary: () => (docked ? setLibraryOpen(!libraryOpen) : toggleDrawer('library')),
    toggleRuns: () => (docked ? setRunsOpen(!runsOpen) : toggleDrawer('runs')),
    toggleInspector: () => (docked ? setInspectorOpen(!inspectorOpen) : presenting ? inspect(!inspecting) : toggleDrawer('inspector')),
    toggleChat: () => {
      if (chatOpen) return app.chat.close()
      if (!docked) setDrawer(undefined)
      app.chat.open()
    },
    closeDrawer: () => setDrawer(undefined),
  }
}
