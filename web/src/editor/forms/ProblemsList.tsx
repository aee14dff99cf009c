import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined'
import InfoOutlined from '@mui/icons-material/InfoOutlined'
import WarningAmber from '@mui/icons-material/WarningAmber'
import Box from '@mui/material/Box'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'
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
 * The draft's diagnostics grouped by severity with counts; each entry names its step and field
 * and selects it (click, Enter or Space).
 */
export default function ProblemsList({ diagnostics, onSelect }: ProblemsListProps) {
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
        return (
          <Box key={severity}>
            <Typography component="h3" variant="overline" sx={{ px: 1, color: 'text.secondary', lineHeight: 2 }}>
              {heading}
            </Typography>
            <List dense disablePadding aria-label={heading}>
              {items.map((d, i) => (
                <ListItem key={i} disablePadding>
                  <ListItemButton onClick={() => onSelect(d)} sx={{ alignItems: 'flex-start', py: 0.25 }}>
                    <ListItemIcon sx={{ minWidth: 28, mt: 0.5 }}>{icon}</ListItemIcon>
                    <ListItemText
                      primary={d.message}
                      secondary={`${where(d)} · ${d.code}`}
                      slotProps={{ secondary: { sx: { fontFamily: monoFont, fontSize: 11 } } }}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        )
      })}
    </Box>
  )
}
