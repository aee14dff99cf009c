//! The open workflow's name in the top bar, marked when it has unsaved changes, the file it is
//! saved in beside it, and the Edit button that turns the canvas into the builder.
import Edit from '@mui/icons-material/Edit'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useApp } from '../app/AppContext'
import { useEditSession } from '../editor/editSession'
import { isRecord } from '../state/definition'
import { useWorkflowStore } from '../state/workflowStore'
import { fileNameOf } from '../state/workflowFile'
import { monoFont } from '../theme'

export default function WorkflowTitle() {
  const app = useApp()
  const label = useWorkflowStore((s) => s.graph?.name ?? s.current?.label)
  const file = useWorkflowStore((s) => fileNameOf(s.current?.id))
  const editable = useWorkflowStore((s) => isRecord(s.current?.definition))
  const open = useWorkflowStore((s) => s.current !== undefined)
  const editing = useEditSession((s) => s.active)
  const starting = useEditSession((s) => s.starting)
  const dirty = useEditSession((s) => s.dirty)
  const error = useEditSession((s) => s.error)
  if (!open) return null
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <Typography component="span" data-testid="workflow-title" noWrap sx={{ color: 'text.secondary', fontSize: 14 }}>
        {label}
        {dirty && (
          <Box component="span" title="Unsaved changes" aria-label="unsaved changes" sx={{ color: 'warning.main', ml: 0.5 }}>
            ●
          </Box>
        )}
      </Typography>
      {file && (
        <Typography
          component="span"
          data-testid="workflow-file"
          noWrap
          title="The file in the playground’s folder"
          sx={{ color: 'text.disabled', fontSize: 12, fontFamily: monoFont }}
        >
          {file}
        </Typography>
      )}
      {!editing && (
        <Tooltip title={editable ? 'Edit this workflow on the canvas' : 'This workflow is not valid JSON: fix it before editing'}>
          <span>
            <Button size="small" variant="outlined" startIcon={<Edit />} disabled={!editable || starting} onClick={() => void app.editing.start()}>
              Edit
            </Button>
          </span>
        </Tooltip>
      )}
      {error && (
        <Typography variant="body2" role="status" sx={{ color: 'error.main' }} noWrap title={error}>
          {error}
        </Typography>
      )}
    </Box>
  )
}
