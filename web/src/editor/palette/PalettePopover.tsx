//! The palette opened where a connection was released on empty canvas: the chosen tool becomes a
//! step there, and the connect menu follows to wire it.
import Popover from '@mui/material/Popover'
import Palette from './Palette'

interface Props {
  at: { left: number; top: number }
  onPick(tool: string): void
  onClose(): void
}

export default function PalettePopover({ at, onPick, onClose }: Props) {
  return (
    <Popover
      open
      onClose={onClose}
      anchorReference="anchorPosition"
      anchorPosition={at}
      slotProps={{ paper: { role: 'dialog', 'aria-label': 'Add a connected step', sx: { width: 280, height: 380 } } }}
    >
      <Palette onPick={onPick} autoFocus />
    </Popover>
  )
}
