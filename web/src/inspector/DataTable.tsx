import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { monoFont } from '../theme'
import { cellText, type TableData } from './tableRows'

const MAX_ROWS = 200

export default function DataTable({ table }: { table: TableData }) {
  const rows = table.rows.slice(0, MAX_ROWS)
  return (
    <>
      {table.path && (
        <Typography variant="caption" sx={{ color: 'text.secondary', fontFamily: monoFont }}>
          {table.path} ({table.rows.length} rows)
        </Typography>
      )}
      <TableContainer sx={{ maxHeight: 420, overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontFamily: monoFont, fontSize: 11 }}>#</TableCell>
              {table.columns.map((c) => (
                <TableCell key={c} sx={{ fontFamily: monoFont, fontSize: 11, fontWeight: 600 }}>
                  {c}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, i) => (
              <TableRow key={i} hover>
                <TableCell sx={{ fontSize: 11, color: 'text.secondary', verticalAlign: 'top' }}>{i}</TableCell>
                {table.columns.map((c) => (
                  <TableCell key={c} sx={{ fontSize: 11, verticalAlign: 'top', minWidth: 88, maxWidth: 280, overflowWrap: 'break-word' }}>
                    {cellText(row[c], 160)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {table.rows.length > MAX_ROWS && (
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          First {MAX_ROWS} of {table.rows.length} rows; download for all.
        </Typography>
      )}
    </>
  )
}
