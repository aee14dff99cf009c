//! A step node's context menu while a past run is on the canvas: "Restart from here", as the
//! inspector's button (which is where the keyboard reaches it).
import Replay from '@mui/icons-material/Replay'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { useApp } from '../app/AppContext'
import { useRestart } from './useRestart'

/** Where the menu was asked for: the pointer's position and the step under it. */
export interface MenuAt {
  x: number
  y: number
  stepId: string
}

export default function RestartContextMenu({ at, onClose }: { at?: MenuAt; onClose(): void }) {
  const app = useApp()
  const { can, why } = useRestart()
  return (
    <Menu
      open={at !== undefined}
      onClose={onClose}
      anchorReference="anchorPosition"
      anchorPosition={at ? { top: at.y, left: at.x } : undefined}
      slotProps={{ list: { dense: true } }}
    >
      <MenuItem
        disabled={!can}
        title={why}
        onClick={() => {
          onClose()
          if (at) void app.history.restart(at.stepId)
        }}
      >
        <ListItemIcon>
          <Replay fontSize="small" />
        </ListItemIcon>
        <ListItemText>Restart from here</ListItemText>
      </MenuItem>
    </Menu>
  )
}
