import Chip from '@mui/material/Chip'
import { useConnectionStore } from '../state/connectionStore'

/** Says so when the live connection to the server is lost (it reconnects by itself). */
export default function ConnectionChip() {
  const state = useConnectionStore((s) => s.state)
  const everOpened = useConnectionStore((s) => s.everOpened)
  if (state === 'open' || (!everOpened && state === 'connecting')) return null
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      role="status"
      label={everOpened ? 'Server connection lost — reconnecting…' : 'Cannot reach the server — retrying…'}
    />
  )
}
