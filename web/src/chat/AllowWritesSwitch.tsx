//! Agent mode's opt-in to tools that change data: off for every conversation until the person
//! turns it on here (the CLI's `--allow-writes` and `/allow-writes`).
import FormControlLabel from '@mui/material/FormControlLabel'
import Switch from '@mui/material/Switch'
import Tooltip from '@mui/material/Tooltip'
import { useChatStore } from './chatStore'

export default function AllowWritesSwitch() {
  const allowWrites = useChatStore((s) => s.allowWrites)
  const set = useChatStore((s) => s.set)
  return (
    <Tooltip describeChild title="Let the agent add documents to the knowledge base (vai_ingest) in this conversation. Off for every new conversation.">
      <FormControlLabel
        sx={{ m: 0, '& .MuiFormControlLabel-label': { fontSize: 12 } }}
        control={<Switch size="small" checked={allowWrites} onChange={(e) => set({ allowWrites: e.target.checked })} />}
        label="Allow changes"
      />
    </Tooltip>
  )
}
