import List from '@mui/material/List'
import ListItemButton from '@mui/material/ListItemButton'
import Paper from '@mui/material/Paper'
import Popper from '@mui/material/Popper'
import Typography from '@mui/material/Typography'
import { monoFont } from '../../theme'
import { optionId, type CompletionState } from './useCompletion'

interface Props {
  id: string
  label: string
  anchor: HTMLElement | null
  state?: CompletionState
  onPick(index: number): void
}

/** The completion popup: a listbox whose options the field's keyboard handler moves through. */
export default function CompletionList({ id, label, anchor, state, onPick }: Props) {
  const open = Boolean(state && anchor)
  return (
    <Popper open={open} anchorEl={anchor} placement="bottom-start" sx={{ zIndex: 1500 }}>
      <Paper elevation={8} sx={{ maxHeight: 260, overflow: 'auto', minWidth: 240, maxWidth: 420 }}>
        <List id={id} role="listbox" aria-label={`Completions for ${label}`} dense disablePadding>
          {state?.items.map((item, i) => (
            <ListItemButton
              key={`${item.kind}:${item.label}:${i}`}
              id={optionId(id, i)}
              role="option"
              aria-selected={i === state.active}
              selected={i === state.active}
              tabIndex={-1}
              // Keep the focus in the field: the click picks the item, the field keeps typing.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick(i)}
              sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}
            >
              <Typography component="span" sx={{ fontFamily: monoFont, fontSize: 12 }}>
                {item.label}
              </Typography>
              <Typography
                component="span"
                variant="caption"
                sx={{ color: 'text.secondary', ml: 'auto', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
              >
                {item.detail ?? item.kind}
              </Typography>
            </ListItemButton>
          ))}
        </List>
      </Paper>
    </Popper>
  )
}
