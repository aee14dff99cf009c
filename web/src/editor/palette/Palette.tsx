//! The palette of step tools by category, with the catalog's icons and colours and a search.
//! Pick a tool by click or Enter (keyboard: type to search, ↓ into the list, ↑/↓ between tools),
//! or drag it onto the canvas.
import Search from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import InputAdornment from '@mui/material/InputAdornment'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import ListSubheader from '@mui/material/ListSubheader'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import StepIcon from '../../canvas/StepIcon'
import { useCatalogStore } from '../../state/catalogStore'
import { monoFont } from '../../theme'
import { bestMatch, groupTools } from './filterTools'

/** The drag type of a tool dragged from the palette onto the canvas. */
export const TOOL_DRAG_TYPE = 'application/x-vai-tool'

interface Props {
  onPick(tool: string): void
  /** Focus the search field on mount (the palette opened at a released connection). */
  autoFocus?: boolean
  /** Tools can be dragged onto the canvas (the side palette). */
  draggable?: boolean
}

function focusItem(list: HTMLElement | null, delta: number): void {
  const items = Array.from(list?.querySelectorAll<HTMLElement>('[data-tool]') ?? [])
  if (items.length === 0) return
  const at = items.indexOf(document.activeElement as HTMLElement)
  const next = at < 0 ? (delta > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + delta))
  items[next].focus()
}

export default function Palette({ onPick, autoFocus, draggable }: Props) {
  const tools = useCatalogStore((s) => s.tools)
  const categories = useCatalogStore((s) => s.categories)
  const error = useCatalogStore((s) => s.error)
  const [query, setQuery] = useState('')
  const list = useRef<HTMLUListElement>(null)
  const groups = useMemo(() => groupTools(Object.values(tools), categories, query), [tools, categories, query])
  const best = useMemo(() => bestMatch(groups, query), [groups, query])

  const onSearchKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      focusItem(list.current, 1)
    } else if (e.key === 'Enter' && best) {
      e.preventDefault()
      onPick(best.name)
    }
  }
  const onListKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    e.preventDefault()
    focusItem(list.current, e.key === 'ArrowDown' ? 1 : -1)
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <Box sx={{ p: 1 }}>
        <TextField
          label="Search steps"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onSearchKey}
          autoFocus={autoFocus}
          fullWidth
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {error && (
        <Typography variant="body2" sx={{ px: 1, color: 'error.main' }}>
          The tool catalog could not be loaded: {error}
        </Typography>
      )}
      {groups.length === 0 && !error && (
        <Typography variant="body2" sx={{ px: 1.5, color: 'text.secondary' }}>
          {query ? 'No tool matches.' : 'Loading tools…'}
        </Typography>
      )}
      <List ref={list} dense aria-label="Tools" onKeyDown={onListKey} sx={{ flex: 1, overflow: 'auto', minHeight: 0, py: 0 }}>
        {groups.map(({ category, tools: inGroup }) => (
          <li key={category.id}>
            <Box component="ul" sx={{ p: 0 }}>
              <ListSubheader sx={{ lineHeight: '28px', bgcolor: 'background.default', display: 'flex', alignItems: 'center', gap: 1 }}>
                <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: category.color }} />
                {category.label}
              </ListSubheader>
              {inGroup.map((tool) => (
                <ListItem key={tool.name} disablePadding>
                  <ListItemButton
                    data-tool={tool.name}
                    data-testid={`palette-${tool.name}`}
                    aria-label={`Add ${tool.label} step`}
                    title={tool.description}
                    draggable={draggable}
                    onDragStart={(e) => {
                      e.dataTransfer.setData(TOOL_DRAG_TYPE, tool.name)
                      e.dataTransfer.effectAllowed = 'copy'
                    }}
                    onClick={() => onPick(tool.name)}
                    sx={{ gap: 1, py: 0.25, borderLeft: 3, borderColor: tool.color }}
                  >
                    <StepIcon name={tool.icon} color={tool.color} />
                    <ListItemText
                      primary={tool.label}
                      secondary={tool.name}
                      slotProps={{ primary: { noWrap: true, sx: { fontSize: 13 } }, secondary: { noWrap: true, sx: { fontSize: 11, fontFamily: monoFont } } }}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </Box>
          </li>
        ))}
      </List>
    </Box>
  )
}
