//! "New workflow": an empty canvas, or one of the starters `vai workflow init` has (search, rag,
//! ingest), which the server lists so the two never differ.
import Add from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import ListItemText from '@mui/material/ListItemText'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import { useState } from 'react'
import { errorInfo } from '../api/client'
import type { Workflow, WorkflowStarter } from '../api/types'
import { useApp } from '../app/AppContext'
import { isRecord } from '../state/definition'

type Starters = { list: WorkflowStarter[] } | { error: string } | undefined

/** A starter's definition as the editor's document; the server sends workflows, checked anyway. */
function asWorkflow(definition: WorkflowStarter['definition']): Workflow | undefined {
  return isRecord(definition) && typeof definition.name === 'string' && Array.isArray(definition.steps) ? (definition as Workflow) : undefined
}

export default function NewWorkflowMenu() {
  const { api, editing } = useApp()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const [starters, setStarters] = useState<Starters>()
  const open = (el: HTMLElement) => {
    setAnchor(el)
    if (starters && 'list' in starters) return
    setStarters(undefined)
    api.starters().then(
      (body) => setStarters({ list: body.starters }),
      (e: unknown) => setStarters({ error: `Starters unavailable: ${errorInfo(e).message}` }),
    )
  }
  const create = async (doc?: Workflow) => {
    setAnchor(null)
    if (!(await editing.confirmLeave())) return
    editing.stop(true)
    await editing.start({ kind: 'new', doc })
  }
  return (
    <>
      <Button
        variant="contained"
        startIcon={<Add />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => open(e.currentTarget)}
        sx={{ flexBasis: '100%' }}
      >
        New workflow
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': 'New workflow' } }}>
        <MenuItem onClick={() => void create()}>
          <ListItemText primary="Empty workflow" secondary="Start from an empty canvas" />
        </MenuItem>
        {starters === undefined && <MenuItem disabled>Loading starters…</MenuItem>}
        {starters && 'error' in starters && <MenuItem disabled>{starters.error}</MenuItem>}
        {starters &&
          'list' in starters &&
          starters.list.map((s) => (
            <MenuItem key={s.id} onClick={() => void create(asWorkflow(s.definition))}>
              <ListItemText primary={s.label} secondary={s.description} />
            </MenuItem>
          ))}
      </Menu>
    </>
  )
}
