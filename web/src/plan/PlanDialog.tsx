import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import type { ApiCalls } from '../api/types'
import { focusNode } from '../inspector/focusNode'
import { useWorkflowStore } from '../state/workflowStore'

const CALLS: { key: keyof ApiCalls; label: string }[] = [
  { key: 'embed', label: 'Embedding' },
  { key: 'rerank', label: 'Rerank' },
  { key: 'vectorSearch', label: 'Vector search' },
  { key: 'llm', label: 'LLM' },
  { key: 'http', label: 'HTTP' },
]

/** The dry run: execution layers (steps in a layer can run in parallel) and estimated API calls. */
export default function PlanDialog({ onClose }: { onClose(): void }) {
  const graph = useWorkflowStore((s) => s.graph)
  const errors = useWorkflowStore((s) => s.diagnostics.filter((d) => d.severity === 'error').length)
  if (!graph) return null
  const names = new Map(graph.nodes.map((n) => [n.id, n.kind === 'step' ? n.name : n.id]))
  const total = CALLS.reduce((sum, c) => sum + graph.estimate[c.key], 0)

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
          Estimated API calls per run{total === 0 ? ': none' : ''}
        </Typography>
        {total > 0 && (
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content max-content', columnGap: 2, m: 0, mt: 0.5 }}>
            {CALLS.filter((c) => graph.estimate[c.key] > 0).map((c) => (
              <Box key={c.key} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2">
                  {c.label}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
                  {graph.estimate[c.key]}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mt: 1 }}>
          A forEach step is counted once; it makes one call per item when it runs.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  )
}
