//! Fields that differ between run A and run B, side by side: one row per field, each value as one
//! line of JSON, or — when that is too long — by its size, opening to the whole JSON; `absent`
//! where a run lacks the field.
import Box from '@mui/material/Box'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import type { FieldChange, JsonValue } from '../api/types'
import { monoFont } from '../theme'
import { valueText, VALUE_CHARS } from './diffView'

const cellSx = { fontFamily: monoFont, fontSize: 11, verticalAlign: 'top', overflowWrap: 'anywhere', px: 0.75 } as const

function Value({ value }: { value: JsonValue | undefined }) {
  const line = valueText(value)
  const whole = value === undefined ? line : JSON.stringify(value, null, 2)
  if (value === undefined || JSON.stringify(value).length <= VALUE_CHARS)
    return (
      <Box component="span" sx={{ color: value === undefined ? 'text.secondary' : undefined }}>
        {line}
      </Box>
    )
  return (
    <details>
      <Box component="summary" sx={{ cursor: 'pointer' }}>
        {line}
      </Box>
      <Box component="pre" sx={{ m: 0, mt: 0.5, maxHeight: 240, overflow: 'auto', fontSize: 10, whiteSpace: 'pre-wrap' }}>
        {whole}
      </Box>
    </details>
  )
}

export default function FieldChanges({ changes, label }: { changes: FieldChange[]; label: string }) {
  return (
    <Table size="small" aria-label={label} sx={{ tableLayout: 'fixed' }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ ...cellSx, width: '28%', fontWeight: 600 }}>Field</TableCell>
          <TableCell sx={{ ...cellSx, fontWeight: 600 }}>Run A</TableCell>
          <TableCell sx={{ ...cellSx, fontWeight: 600 }}>Run B</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((c) => (
          <TableRow key={c.field} data-testid="field-change">
            <TableCell component="th" scope="row" sx={{ ...cellSx, fontWeight: 600 }}>
              {c.field}
            </TableCell>
            <TableCell sx={cellSx}>
              <Value value={c.a} />
            </TableCell>
            <TableCell sx={cellSx}>
              <Value value={c.b} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
