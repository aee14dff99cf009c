//! The price table costs are counted with (`GET /api/pricing`): each model's dollars per million
//! tokens, where the figure came from, and its date — `.vai.json` overrides and local models
//! (free) included — so a cost on the canvas can be checked.
import Dialog from '@mui/material/Dialog'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useEffect, useState } from 'react'
import { errorInfo } from '../api/client'
import type { PricingTable } from '../api/types'
import { useApp } from '../app/AppContext'

export default function PricesDialog({ onClose }: { onClose(): void }) {
  const { api } = useApp()
  const [table, setTable] = useState<PricingTable>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    let live = true
    api.pricing().then(
      (t) => live && setTable(t),
      (e: unknown) => live && setError(errorInfo(e).message),
    )
    return () => {
      live = false
    }
  }, [api])
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="prices-title">
      <DialogTitle id="prices-title">Prices{table ? ` (as of ${table.pricedAt})` : ''}</DialogTitle>
      <DialogContent>
        {error && <Typography color="error">{error}</Typography>}
        {table && (
          <>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
              Dollars per million tokens. Local models cost nothing; a model missing here is never counted as free. Add or override a price under
              &quot;pricing&quot; in .vai.json.
            </Typography>
            <Table size="small" aria-label="Price table">
              <TableHead>
                <TableRow>
                  <TableCell>Model</TableCell>
                  <TableCell>Use</TableCell>
                  <TableCell align="right">Input</TableCell>
                  <TableCell align="right">Output</TableCell>
                  <TableCell>Priced</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {table.models.map((m) => (
                  <TableRow key={m.model}>
                    <TableCell>{m.model}</TableCell>
                    <TableCell>{m.use ?? ''}</TableCell>
                    <TableCell align="right">${m.inputPerMTok}</TableCell>
                    <TableCell align="right">{m.use === 'llm' || m.outputPerMTok > 0 ? `$${m.outputPerMTok}` : '—'}</TableCell>
                    <TableCell>
                      {m.source ? (
                        <Link href={m.source} target="_blank" rel="noreferrer">
                          {m.pricedAt}
                        </Link>
                      ) : (
                        m.pricedAt
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
