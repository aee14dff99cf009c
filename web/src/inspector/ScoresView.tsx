//! An evaluator's scores as a small table above the raw output, with the warning the server
//! attaches when the small offline model scored (`judge: "local-small"`): valid, not reliable.
import Alert from '@mui/material/Alert'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { scoresOf } from './scores'
import Section from './Section'

export default function ScoresView({ value }: { value: unknown }) {
  const shown = scoresOf(value)
  if (!shown) return null
  return (
    <Section title="Scores">
      {shown.notice && (
        <Alert severity="warning" data-testid="scores-notice" sx={{ mb: 1 }}>
          {shown.notice}
        </Alert>
      )}
      <Table size="small" aria-label="Scores" data-testid="scores-table">
        <TableBody>
          {shown.scores.map(([name, score]) => (
            <TableRow key={name}>
              <TableCell component="th" scope="row">
                {name}
              </TableCell>
              <TableCell align="right">{score}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {shown.reasoning && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1, whiteSpace: 'pre-wrap' }}>
          {shown.reasoning}
        </Typography>
      )}
    </Section>
  )
}
