import History from '@mui/icons-material/History'
import Box from '@mui/material/Box'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import { useApp } from '../app/AppContext'
import { useEditSession } from '../editor/editSession'
import { monoFont } from '../theme'

interface Props {
  workflowKey: string
  name: string
  description?: string
  steps?: number
  /** Where it lives, shown under the name: the file name, or "built-in" and the like in Recent. */
  origin?: string
  recent?: boolean
  selected: boolean
}

/** A workflow in the library; its accessible name starts with the workflow name (recent ones with "Recent:"). */
export default function LibraryItem({ workflowKey, name, description, steps, origin, recent, selected }: Props) {
  const { open } = useApp()
  const unsaved = useEditSession((s) => s.dirty && s.key === workflowKey)
  const details = [unsaved ? 'unsaved changes' : undefined, description, steps !== undefined ? `${steps} step${steps === 1 ? '' : 's'}` : undefined]
    .filter(Boolean)
    .join(' · ')
  // Two workflows may share a name (every new one starts as "Untitled workflow"): the file name
  // tells them apart.
  const secondary =
    origin || details ? (
      <>
        {origin && (
          <Box component="span" sx={{ display: 'block', fontFamily: monoFont, fontSize: 11, overflowWrap: 'anywhere' }}>
            {origin}
          </Box>
        )}
        {details && (
          <Box component="span" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
            {details}
          </Box>
        )}
      </>
    ) : undefined
  // A list item holding the button: a list may only contain items (axe `list`).
  return (
    <ListItem disablePadding>
      <ListItemButton
        selected={selected}
        aria-current={selected ? 'page' : undefined}
        aria-label={recent ? `Recent: ${name}` : undefined}
        onClick={() => void open.byId(workflowKey)}
        title={workflowKey}
        sx={{ alignItems: 'flex-start', py: 0.5 }}
      >
        {recent && <History fontSize="small" sx={{ mr: 1, mt: 0.5, color: 'text.secondary' }} />}
        <ListItemText
          primary={unsaved ? `${name} ●` : name}
          secondary={secondary}
          slotProps={{ primary: { sx: { fontWeight: 500, overflowWrap: 'anywhere' } } }}
        />
      </ListItemButton>
    </ListItem>
  )
}
