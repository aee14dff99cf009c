import IconButton from '@mui/material/IconButton'
import { monoFont } from '../../theme'

/** A small pressed/unpressed button switching how a field is edited (template, JSON). */
export default function ModeToggle({ label, pressed, text, onClick }: { label: string; pressed: boolean; text: string; onClick(): void }) {
  return (
    <IconButton
      size="small"
      aria-label={label}
      aria-pressed={pressed}
      title={label}
      onClick={onClick}
      color={pressed ? 'primary' : 'default'}
      sx={{ mt: 0.75, fontFamily: monoFont, fontSize: 11, fontWeight: 700, borderRadius: 1, minWidth: 34, bgcolor: pressed ? 'action.selected' : undefined }}
    >
      {text}
    </IconButton>
  )
}
