//! The rows of the inputs and output nodes, capped at IO_MAX_ROWS with "+N more".
import Box from '@mui/material/Box'
import type { ReactNode } from 'react'
import { IO_MAX_ROWS, IO_ROW } from './layout'
import { ellipsis, mono } from './textSx'

export interface IoRow {
  key: string
  label: ReactNode
  hint?: string
}

export default function IoList({ rows, empty }: { rows: IoRow[]; empty: string }) {
  if (rows.length === 0) {
    return <Box sx={{ color: 'text.secondary', fontStyle: 'italic', lineHeight: `${IO_ROW}px` }}>{empty}</Box>
  }
  const shown = rows.length > IO_MAX_ROWS ? rows.slice(0, IO_MAX_ROWS) : rows
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {shown.map((row) => (
        <Box component="li" key={row.key} title={row.hint} sx={{ ...ellipsis, ...mono, lineHeight: `${IO_ROW}px` }}>
          {row.label}
        </Box>
      ))}
      {rows.length > shown.length && (
        <Box component="li" sx={{ color: 'text.secondary', lineHeight: `${IO_ROW}px` }}>
          +{rows.length - shown.length} more
        </Box>
      )}
    </Box>
  )
}
