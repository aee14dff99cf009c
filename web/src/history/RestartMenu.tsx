//! "Restart from…" in the past run's banner: a menu of the workflow's steps (as shown, edited or
//! not), each restarting the run shown from that step. The banner stays while editing, so this
//! is how an edited workflow is restarted.
import ArrowDropDown from '@mui/icons-material/ArrowDropDown'
import Replay from '@mui/icons-material/Replay'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Menu from '@mui/material/Menu'
import MenuItem from '@mui/material/MenuItem'
import Tooltip from '@mui/material/Tooltip'
import { useState } from 'react'
import type { GraphView } from '../api/types'
import { useApp } from '../app/AppContext'
import { useWorkflowStore } from '../state/workflowStore'
import { monoFont } from '../theme'
import { useRestart } from './useRestart'

/** The graph's steps, layer by layer (upstream first), then any the layers leave out. */
function stepsOf(graph: GraphView | undefined): { id: string; name: string }[] {
  const steps = (graph?.nodes ?? []).flatMap((n) => (n.kind === 'step' ? [{ id: n.id, name: n.name }] : []))
  const order = new Map((graph?.layers ?? []).flat().map((id, i) => [id, i]))
  return [...steps].sort((x, y) => (order.get(x.id) ?? Infinity) - (order.get(y.id) ?? Infinity))
}

export default function RestartMenu() {
  const app = useApp()
  const graph = useWorkflowStore((s) => s.graph)
  const { offered, can, why } = useRestart()
  const [anchor, setAnchor] = useState<HTMLElement>()
  if (!offered) return null
  const steps = stepsOf(graph)
  return (
    <>
      <Tooltip title={why}>
        <span>
          <Button
            size="small"
            variant="outlined"
            startIcon={<Replay />}
            endIcon={<ArrowDropDown />}
            disabled={!can || steps.length === 0}
            aria-haspopup="menu"
            aria-expanded={anchor !== undefined}
            onClick={(e) => setAnchor(e.currentTarget)}
          >
            Restart from…
          </Button>
        </span>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== undefined} onClose={() => setAnchor(undefined)}>
        {steps.map((s) => (
          <MenuItem
            key={s.id}
            onClick={() => {
              setAnchor(undefined)
              void app.history.restart(s.id)
            }}
          >
            {s.name}
            <Box component="span" sx={{ ml: 1, fontFamily: monoFont, fontSize: 11, color: 'text.secondary' }}>
              {s.id}
            </Box>
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}
