//! A side panel (library, inspector, chat) as a drawer over the canvas, below the top bar so
//! the bar's toggle that opened it still closes it; Escape and the backdrop close it too.
import Drawer from '@mui/material/Drawer'
import type { ReactNode } from 'react'
import { TOP_BAR_HEIGHT } from './shellLayout'

interface Props {
  anchor: 'left' | 'right'
  open: boolean
  onClose(): void
  /** Where the drawer is mounted: only that element's other children are hidden from assistive
   * technology while it is open, so the top bar keeps its toggles. */
  container: () => HTMLElement | null
  children: ReactNode
}

export default function PanelDrawer({ anchor, open, onClose, container, children }: Props) {
  return (
    <Drawer
      anchor={anchor}
      open={open}
      onClose={onClose}
      container={container}
      slotProps={{
        paper: {
          // A row, so the panel inside stretches to the drawer's height and scrolls itself.
          sx: { top: TOP_BAR_HEIGHT, height: `calc(100% - ${TOP_BAR_HEIGHT}px)`, flexDirection: 'row', maxWidth: '92vw' },
        },
      }}
    >
      {children}
    </Drawer>
  )
}
