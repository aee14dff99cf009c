import Box from '@mui/material/Box'
import type { ReactNode } from 'react'
import { monoFont } from '../theme'

/** Name → value rows, names in their own element (so each can be found by its exact text). */
export default function KeyValueList({ rows }: { rows: { key: string; value: ReactNode; note?: ReactNode }[] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(72px, max-content) 1fr', columnGap: 1.5, rowGap: 0.75 }}>
      {rows.map(({ key, value, note }) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontFamily: monoFont, fontSize: 12, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {key}
          </Box>
          <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
            {value}
            {note && <Box sx={{ fontSize: 12, color: 'text.secondary' }}>{note}</Box>}
          </Box>
        </Box>
      ))}
    </Box>
  )
}
