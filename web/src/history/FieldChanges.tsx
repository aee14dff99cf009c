//! Fields that differ between run A and run B, side by side: one row per field, each value as one
//! line of JSON (its whole JSON as the tooltip), `absent` where a run lacks the field.
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import type { FieldChange } from '../api/types'
import { monoFont } from '../theme'
import { valueText } from './diffView'

const cellSx = { fontFamily: monoFont, fontSize: 11, verticalAlign: 'top', overflowWrap: 'anywhere', px: 0.75 } as const

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
            <TableCell sx={{ ...cellSx, color: c.a === undefined ? 'text.secondary' : undefined }} title={JSON.stringify(c.a, null, 2)}>
              {valueText(c.a)}
            </TableCell>
            <TableCell sx={{ ...cellSx, color: c.b === undefined ? 'text.secondary' : undefined }} title={JSON.stringify(c.b, null, 2)}>
              {valueText(c.b)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
