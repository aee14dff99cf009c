import History from '@mui/icons-material/History'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import { useEditSession } from '../editor/editSession'
import { openWorkflowById } from '../state/openWorkflow'

interface Props {
  workflowKey: string
  name: string
  description?: string
  steps?: number
  recent?: boolean
  selected: boolean
}

/** A workflow in the library; its accessible name starts with the workflow name (recent ones with "Recent:"). */
export default function LibraryItem({ workflowKey, name, description, steps, recent, selected }: Props) {
  const unsaved = useEditSession((s) => s.dirty && s.key === workflowKey)
  const secondary = [unsaved ? 'unsaved changes' : undefined, description, steps !== undefined ? `${steps} step${steps === 1 ? '' : 's'}` : undefined]
    .filter(Boolean)
    .join(' · ')
  // A list item holding the button: a list may only contain items (axe `list`).
  return (
    <ListItem disablePadding>
      <ListItemButton
        selected={selected}
        aria-current={selected ? 'page' : undefined}
        aria-label={recent ? `Recent: ${name}` : undefined}
        onClick={() => void openWorkflowById(workflowKey)}
        title={workflowKey}
        sx={{ alignItems: 'flex-start', py: 0.5 }}
      >
        {recent && <History fontSize="small" sx={{ mr: 1, mt: 0.5, color: 'text.secondary' }} />}
        <ListItemText
          primary={unsaved ? `${name} ●` : name}
          secondary={secondary || undefined}
          slotProps={{
            primary: { sx: { fontWeight: 500, overflowWrap: 'anywhere' } },
            secondary: { sx: { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' } },
          }}
        />
      </ListItemButton>
    </ListItem>
  )
}
