//! A `router` step's choice: the route it took, why, how it chose (an LLM, or embedding
//! similarity between the input and each route's description), and with similarity the score of
//! every route, above the raw output.
import Box from '@mui/material/Box'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { routeOf, type RouteMethod } from './modelSteps'
import Section from './Section'

const METHOD: Record<RouteMethod, string> = {
  llm: 'chosen by the LLM',
  similarity: "chosen by similarity between the input and each route's description",
}

export default function RouteView({ value }: { value: unknown }) {
  const choice = routeOf(value)
  if (!choice) return null
  return (
    <Section title="Route">
      <Typography variant="body2" data-testid="route-chosen">
        Took{' '}
        <Box component="strong" sx={{ color: '#7E57C2' }}>
          {choice.route}
        </Box>
        , {METHOD[choice.method]}
        {choice.model ? ` (${choice.model})` : ''}
      </Typography>
      {choice.reason && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, whiteSpace: 'pre-wrap' }}>
          {choice.reason}
        </Typography>
      )}
      {choice.scores.length > 0 && (
        <Table size="small" aria-label="Route scores" sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell>route</TableCell>
              <TableCell align="right">similarity</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {choice.scores.map(([route, score]) => (
              <TableRow key={route} selected={route === choice.route}>
                <TableCell component="th" scope="row">
                  {route}
                </TableCell>
                <TableCell align="right">{score.toFixed(3)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  )
}
