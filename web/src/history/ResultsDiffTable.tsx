//! How a step's list of results changed between run A and run B: one row per document that
//! entered, left, moved or was scored differently — rank A → rank B, places moved (↑/↓), and
//! its score with the change — under a line counting each kind.
import Box from '@mui/material/Box'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { Theme } from '@mui/material/styles'
import type { ResultsDiff } from '../api/types'
import { formatScore, movementLabel, movementText, resultRows, resultsLine, scoreDeltaText, type ResultMark } from './diffView'

/** A tone's text colour that reads on either theme's paper at 11 px. */
const toneText = (tone: 'success' | 'error' | 'warning') => (theme: Theme) =>
  theme.palette.mode === 'dark' ? theme.palette[tone].light : theme.palette[tone].dark

const MARK_COLOR: Record<ResultMark, string | ((theme: Theme) => string)> = {
  entered: toneText('success'),
  left: toneText('error'),
  up: toneText('success'),
  down: toneText('warning'),
  rescored: 'text.secondary',
}

const cellSx = { fontSize: 11, verticalAlign: 'top', px: 0.75, fontVariantNumeric: 'tabular-nums' } as const
const rank = (n: number | undefined) => (n === undefined ? '—' : String(n))

export default function ResultsDiffTable({ results }: { results: ResultsDiff }) {
  const rows = resultRows(results)
  const counts = [resultsLine(results), results.unchanged > 0 ? `${results.unchanged} unchanged` : ''].filter(Boolean).join(' · ')
  return (
    <Box data-testid="results-diff">
      <Typography variant="body2" sx={{ mb: 0.5 }}>
        {counts || 'Same documents, same order and scores.'}
        {results.field && (
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {' '}
            in <code>{results.field}</code>
          </Box>
        )}
      </Typography>
      {rows.length > 0 && (
        <Table size="small" aria-label="Documents: rank in run A and run B" sx={{ tableLayout: 'fixed' }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ ...cellSx, width: 60, fontWeight: 600 }}>Rank A → B</TableCell>
              <TableCell sx={{ ...cellSx, width: 44, fontWeight: 600 }}>Move</TableCell>
              <TableCell sx={{ ...cellSx, fontWeight: 600 }}>Document</TableCell>
              <TableCell sx={{ ...cellSx, width: 64, fontWeight: 600 }} align="right">
                Score
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => {
              const delta = scoreDeltaText(row.scoreDelta)
              return (
                <TableRow key={row.key} data-testid="result-row" data-mark={row.mark} data-rank-a={row.rankA} data-rank-b={row.rankB}>
                  <TableCell sx={cellSx}>
                    {rank(row.rankA)} → {rank(row.rankB)}
                  </TableCell>
                  <TableCell sx={{ ...cellSx, color: MARK_COLOR[row.mark], fontWeight: 700 }} title={movementLabel(row)} aria-label={movementLabel(row)}>
                    {movementText(row)}
                  </TableCell>
                  <TableCell sx={{ ...cellSx, overflowWrap: 'anywhere' }} title={row.key}>
                    {row.label}
                  </TableCell>
                  <TableCell sx={cellSx} align="right">
                    <Box component="span" sx={{ color: row.mark === 'left' ? 'text.secondary' : undefined }}>
                      {formatScore(row.mark === 'left' ? row.scoreA : row.scoreB)}
                    </Box>
                    {delta && (
                      <Box
                        component="span"
                        sx={{ display: 'block', color: 'text.secondary' }}
                        title={`${formatScore(row.scoreA)} → ${formatScore(row.scoreB)}`}
                      >
                        {delta}
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      )}
    </Box>
  )
}
