//! The breadcrumb over a sub-workflow drawn on the canvas: the open workflow, then each
//! `workflow` step opened on the way down with the child it calls; every item but the last
//! goes back to that level.
import Breadcrumbs from '@mui/material/Breadcrumbs'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Typography from '@mui/material/Typography'
import { useWorkflowStore } from '../state/workflowStore'
import { crumbs, type SubLevel } from './subWorkflow'
import { useCanvasStore } from './useCanvasStore'

export default function SubWorkflowBar({ trail }: { trail: readonly SubLevel[] }) {
  const root = useWorkflowStore((s) => s.current?.label ?? s.graph?.name ?? 'Workflow')
  const backTo = useCanvasStore((s) => s.backTo)
  const labels = crumbs(root, trail)
  return (
    <Paper
      variant="outlined"
      data-testid="sub-workflow-bar"
      sx={{ position: 'absolute', top: 8, left: 8, zIndex: 5, maxWidth: 'calc(100% - 120px)', px: 1.25, py: 0.5 }}
    >
      <Breadcrumbs separator="›" aria-label="Sub-workflow" sx={{ fontSize: 13 }}>
        {labels.map((label, depth) =>
          depth < labels.length - 1 ? (
            <Link key={depth} component="button" type="button" underline="hover" onClick={() => backTo(depth)} sx={{ fontSize: 'inherit' }}>
              {label}
            </Link>
          ) : (
            <Typography key={depth} aria-current="page" sx={{ fontSize: 'inherit', fontWeight: 600 }}>
              {label}
            </Typography>
          ),
        )}
      </Breadcrumbs>
    </Paper>
  )
}
