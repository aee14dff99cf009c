//! The builder (lazy-loaded when editing starts): the palette beside the canvas, the editing
//! toolbar and messages above it, and the menus a connection opens.
import Box from '@mui/material/Box'
import { memo, useCallback, useState } from 'react'
import { useApp } from '../app/AppContext'
import ConnectMenu from './canvas/ConnectMenu'
import EditorFlow, { type PaletteRequest } from './canvas/EditorFlow'
import { revealNode } from './canvas/reveal'
import { keyOf } from './doc/nodeKeys'
import Palette from './palette/Palette'
import PalettePopover from './palette/PalettePopover'
import EditToolbar from './toolbar/EditToolbar'
import LeaveDialog from './toolbar/LeaveDialog'
import NoticeBar from './toolbar/NoticeBar'
import { useEditor, useEditorStore } from './useEditor'

// Memoised: opening and closing the menus re-renders only the menus.
const SidePalette = memo(Palette)
const Flow = memo(EditorFlow)
const Toolbar = memo(EditToolbar)

/** The connect menu, when one is open: its own component, so it alone re-renders. */
function ConnectMenuHost() {
  const connecting = useEditor((s) => s.connecting)
  const requestConnect = useEditorStore().getState().requestConnect
  if (!connecting) return null
  return <ConnectMenu key={`${connecting.source}>${connecting.target}:${connecting.path}`} request={connecting} onClose={() => requestConnect(undefined)} />
}

export default function EditorCanvas() {
  const store = useEditorStore()
  const { canvas } = useApp().stores
  const [paletteAt, setPaletteAt] = useState<PaletteRequest>()
  const requestConnect = store.getState().requestConnect
  const add = useCallback(
    (tool: string) => {
      const id = store.getState().addStep(tool)
      revealNode((at) => canvas.getState().centre?.(at), id, keyOf(store.getState().nodeKeys, id))
    },
    [store, canvas],
  )

  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
      <Box component="section" aria-label="Add a step" sx={{ width: 230, flexShrink: 0, borderRight: 1, borderColor: 'divider', minHeight: 0 }}>
        <SidePalette onPick={add} draggable />
      </Box>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <NoticeBar />
        <Box sx={{ flex: 1, minHeight: 0, position: 'relative' }}>
          <Flow onConnectRequest={requestConnect} onPaletteRequest={setPaletteAt} />
        </Box>
      </Box>
      {paletteAt && (
        <PalettePopover
          at={paletteAt.at}
          onClose={() => setPaletteAt(undefined)}
          onPick={(tool) => {
            const id = store.getState().addStep(tool, paletteAt.position)
            setPaletteAt(undefined)
            requestConnect({ source: paletteAt.source, target: id, at: paletteAt.at })
          }}
        />
      )}
      <ConnectMenuHost />
      <LeaveDialog />
    </Box>
  )
}
