import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined'
import InfoOutlined from '@mui/icons-material/InfoOutlined'
import WarningAmber from '@mui/icons-material/WarningAmber'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Typography from '@mui/material/Typography'
import { memo, useState, type ReactNode } from 'react'
import type { Diagnostic, Severity } from '../../api/types'
import { monoFont } from '../../theme'
import type { ProblemsListProps } from './types'

const GROUPS: { severity: Severity; title: string; icon: ReactNode }[] = [
  { severity: 'error', title: 'Errors', icon: <ErrorOutline fontSize="small" color="error" /> },
  { severity: 'warning', title: 'Warnings', icon: <WarningAmber fontSize="small" color="warning" /> },
  { severity: 'info', title: 'Info', icon: <InfoOutlined fontSize="small" color="info" /> },
]

/** "step merge · inputs.arrays[1]", "workflow · output.answer", "line 4:18". */
function where(d: Diagnostic): string {
  const parts: string[] = []
  if (d.line !== undefined) parts.push(`line ${d.line}:${d.column ?? 1}`)
  parts.push(d.stepId ? `step ${d.stepId}` : 'workflow')
  if (d.field) parts.push(d.field)
  return parts.join(' · ')
}

/**
 * Entries shown per group until "Show all": a draft of hundreds of unnamed steps has hundreds
 * of infos, and drawing them all on every edit would cost more than the edit.
 */
export const SHOWN_PER_GROUP = 50

/** A key that stays the same while the problem does (answers are new objects each time). */
function keyOf(d: Diagnostic): string {
  return [d.code, d.stepId ?? '', d.field ?? '', d.line ?? '', d.column ?? '', d.message].join('\u0000')
}

type EntryProps = { d: Diagnostic; icon: ReactNode; onSelect(d: Diagnostic): void }

/** One problem; redrawn only when what it shows changed. */
const Entry = memo(
  function Entry({ d, icon, onSelect }: EntryProps) {
    return (
      <ListItem disablePadding>
        <ListItemButton onClick={() => onSelect(d)} sx={{ alignItems: 'flex-start', py: 0.25 }}>
          <ListItemIcon sx={{ minWidth: 28, mt: 0.5 }}>{icon}</ListItemIcon>
          <ListItemText primary={d.message} secondary={`${where(d)} · ${d.code}`} slotProps={{ secondary: { sx: { fontFamily: monoFont, fontSize: 11 } } }} />
        </ListItemButton>
      </ListItem>
    )
  },
  (a, b) => a.icon === b.icon && a.onSelect === b.onSelect && keyOf(a.d) === keyOf(b.d),
)

/**
 * The draft's diagnostics grouped by severity with counts; each entry names its step and field
 * and selects it (click, Enter or Space). A long group shows its first entries and a button
 * for the rest.
 */
export default function ProblemsList({ diagnostics, onSelect }: ProblemsListProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<Severity>>(() => new Set())
  if (diagnostics.length === 0)
    return (
      <Typography variant="body2" role="status" sx={{ color: 'text.secondary', p: 1 }}>
        No problems.
      </Typography>
    )
  return (
    <Box component="section" aria-label="Problems">
      {GROUPS.map(({ severity, title, icon }) => {
        const items = diagnostics.filter((d) => d.severity === severity)
        if (items.length === 0) return null
        const heading = `${title} (${items.length})`
        const shown = expanded.has(severity) ? items : items.slice(0, SHOWN_PER_GROUP)
        const hidden = items.length - shown.length
        return (
          <Box key={severity}>
            <Typography component="h3" variant="overline" sx={{ px: 1, color: 'text.secondary', lineHeight: 2 }}>
              {heading}
            </Typography>
            <List dense disablePadding aria-label={heading}>
              {shown.map((d, i) => (
                <Entry key={`${i}:${keyOf(d)}`} d={d} icon={icon} onSelect={onSelect} />
              ))}
            </List>
            {hidden > 0 && (
              <Button size="small" sx={{ ml: 1 }} onClick={() => setExpanded(new Set(expanded).add(severity))}>
                Show all {items.length}
              </Button>
            )}
          </Box>
        )
      })}
    </Box>
  )
}
