import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import type { ApiCalls } from '../api/types'
import { useCanvasStore } from '../canvas/useCanvasStore'
import { useWorkflowStore } from '../state/workflowStore'
import PlanCost from './PlanCost'
import PricesDialog from './PricesDialog'

const CALLS: { key: keyof ApiCalls; label: string }[] = [
  { key: 'embed', label: 'Embedding' },
  { key: 'rerank', label: 'Rerank' },
  { key: 'vectorSearch', label: 'Vector search' },
  { key: 'llm', label: 'LLM' },
  { key: 'http', label: 'HTTP' },
]

/** The dry run: execution layers (steps in a layer can run in parallel), estimated API calls and their cost. */
export default function PlanDialog({ onClose }: { onClose(): void }) {
  const graph = useWorkflowStore((s) => s.graph)
  const errors = useWorkflowStore((s) => s.diagnostics.filter((d) => d.severity === 'error').length)
  const focusNode = useCanvasStore((s) => s.focus)
  const [prices, setPrices] = useState(false)
  if (!graph) return null
  const names = new Map(graph.nodes.map((n) => [n.id, n.kind === 'step' ? n.name : n.id]))
  const { fixed, perItem } = graph.estimate
  const shown = CALLS.filter((c) => fixed[c.key] + perItem[c.key] > 0)
  const repeated = CALLS.some((c) => perItem[c.key] > 0)

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Plan: {graph.name}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: graph.runnable ? 'text.secondary' : 'error.main', mb: 2 }}>
          {graph.runnable
            ? 'A dry run: nothing is executed. Steps in the same layer can run in parallel.'
            : `Not runnable: ${errors} error${errors === 1 ? '' : 's'} to fix first.`}
        </Typography>
        <Box component="ol" sx={{ m: 0, pl: 3 }}>
          {graph.layers.map((layer, i) => (
            <Box component="li" key={i} sx={{ mb: 1 }}>
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                Layer {i + 1}
              </Typography>
              <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                {layer.map((id) => (
                  <Chip
                    key={id}
                    size="small"
                    label={names.get(id) ?? id}
                    title={id}
                    onClick={() => {
                      focusNode(id)
                      onClose()
                    }}
                  />
                ))}
              </Box>
            </Box>
          ))}
        </Box>
        <Typography variant="subtitle2" sx={{ mt: 2 }}>
          Estimated API calls{shown.length === 0 ? ': none' : ''}
        </Typography>
        {shown.length > 0 && (
          <Box
            component="table"
            aria-label="Estimated API calls"
            sx={{
              borderCollapse: 'collapse',
              mt: 0.5,
              '& th, & td': { px: 1, py: 0.25, textAlign: 'left', typography: 'body2' },
              '& td': { fontVariantNumeric: 'tabular-nums' },
            }}
          >
            <thead>
              <tr>
                <th />
                <th scope="col">per run</th>
                {repeated && <th scope="col">per forEach/loop item</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <tr key={c.key}>
                  <th scope="row">{c.label}</th>
                  <td>{fixed[c.key]}</td>
                  {repeated && <td>{perItem[c.key]}</td>}
                </tr>
              ))}
            </tbody>
          </Box>
        )}
        {graph.estimate.cost && <PlanCost cost={graph.estimate.cost} />}
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mt: 1 }}>
          Every step is counted once, both branches of a conditional included; a step that repeats per item makes its calls once per item when it runs. The
          CLI's <code>vai workflow run --dry-run</code> prints the same estimate.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setPrices(true)}>Prices</Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
      {prices && <PricesDialog onClose={() => setPrices(false)} />}
    </Dialog>
  )
}
