//! The menu a new connection opens: what to read from the source and which input of the target
//! it goes into (a conditional's branches, a router's routes, `dependsOn`, or an output field). Reachable by mouse
//! (dragging between handles) and keyboard (the inspector's "Connect to…").
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import List from '@mui/material/List'
import ListItemButton from '@mui/material/ListItemButton'
import ListItemText from '@mui/material/ListItemText'
import MenuItem from '@mui/material/MenuItem'
import Popover from '@mui/material/Popover'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useMemo, useState } from 'react'
import { useCatalogStore } from '../../state/catalogStore'
import { monoFont } from '../../theme'
import { refusal, type Into } from '../doc/connect'
import { INPUTS_NODE, OUTPUT_NODE, stepIds } from '../doc/model'
import type { ConnectRequest } from '../store/state'
import { useEditor, useEditorStore } from '../useEditor'
import { outputFieldName, sourceFields, targetOptions } from './connectOptions'

export type { ConnectRequest }

function nodeLabel(id: string): string {
  return id === INPUTS_NODE ? 'inputs' : id === OUTPUT_NODE ? 'output' : id
}

export default function ConnectMenu({ request, onClose }: { request: ConnectRequest; onClose(): void }) {
  const store = useEditorStore()
  const doc = useEditor((s) => s.doc)
  const tools = useCatalogStore((s) => s.tools)
  const [target, setTarget] = useState(request.target ?? '')
  const fields = useMemo(() => sourceFields(doc, request.source, tools), [doc, request.source, tools])
  const [path, setPath] = useState(request.path ?? fields[0]?.path ?? '')
  const options = useMemo(() => (target ? targetOptions(doc, request.source, target, tools) : []), [doc, request.source, target, tools])
  const [field, setField] = useState(() => outputFieldName(doc, request.path ?? fields[0]?.path ?? 'result'))
  const [error, setError] = useState<string>()
  const edges = useEditor((s) => s.edges)
  // A target the connection could never reach (it would close a cycle) is listed but not offered.
  const targets = [...stepIds(doc).filter((id) => id !== request.source), OUTPUT_NODE].map((id) => ({ id, refused: refusal(edges, request.source, id) }))

  const connect = (into: Into) => {
    if (store.getState().connect({ source: request.source, target, path: path || undefined, into })) onClose()
    else setError(store.getState().notice?.text)
  }
  const readsData = (into: Into) => into.kind === 'input' || into.kind === 'output'

  return (
    <Popover
      open
      onClose={onClose}
      anchorReference="anchorPosition"
      anchorPosition={request.at}
      slotProps={{
        paper: { role: 'dialog', 'aria-label': `Connect ${nodeLabel(request.source)}${target ? ` to ${nodeLabel(target)}` : ''}`, sx: { width: 340, p: 1.5 } },
      }}
    >
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Connect <b>{nodeLabel(request.source)}</b>
        {target && (
          <>
            {' '}
            → <b>{nodeLabel(target)}</b>
          </>
        )}
      </Typography>
      {!request.target && (
        <TextField select label="To" value={target} onChange={(e) => setTarget(e.target.value)} fullWidth sx={{ mb: 1 }}>
          {targets.map(({ id, refused }) => (
            <MenuItem key={id} value={id} disabled={refused !== undefined} sx={{ display: 'block', whiteSpace: 'normal' }}>
              {nodeLabel(id)}
              {refused && (
                <Typography component="span" variant="caption" sx={{ display: 'block', color: 'text.secondary' }}>
                  {refused}
                </Typography>
              )}
            </MenuItem>
          ))}
        </TextField>
      )}
      {!request.path && fields.length > 0 && (
        <TextField
          select
          label="Read"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          fullWidth
          sx={{ mb: 1 }}
          slotProps={{ select: { sx: { fontFamily: monoFont, fontSize: 12 } } }}
        >
          {fields.map((f) => (
            <MenuItem key={f.path} value={f.path} title={f.detail} sx={{ fontFamily: monoFont, fontSize: 12 }}>
              {f.path}
            </MenuItem>
          ))}
        </TextField>
      )}
      {request.path && (
        <Typography variant="body2" sx={{ fontFamily: monoFont, fontSize: 12, mb: 1 }}>
          Reads {`{{ ${request.path} }}`}
        </Typography>
      )}
      {target && (
        <>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            Into
          </Typography>
          <List dense aria-label="Inputs of the target" sx={{ maxHeight: 260, overflow: 'auto', py: 0 }}>
            {options.map((o) => (
              <ListItemButton key={o.label} disabled={readsData(o.into) && !path} onClick={() => connect(o.into)} autoFocus={o === options[0]}>
                <ListItemText
                  primary={`${o.label}${o.required ? ' *' : ''}`}
                  secondary={o.detail}
                  slotProps={{ primary: { sx: { fontFamily: monoFont, fontSize: 12 } }, secondary: { noWrap: true, sx: { fontSize: 11 } } }}
                />
              </ListItemButton>
            ))}
          </List>
          {target === OUTPUT_NODE && (
            <Box
              component="form"
              sx={{ display: 'flex', gap: 1, mt: 1 }}
              onSubmit={(e) => {
                e.preventDefault()
                if (field.trim()) connect({ kind: 'output', field: field.trim() })
              }}
            >
              <TextField label="New output field" value={field} onChange={(e) => setField(e.target.value)} fullWidth />
              <Button type="submit" variant="outlined" disabled={!field.trim() || !path}>
                Add
              </Button>
            </Box>
          )}
          {options.length === 0 && target !== OUTPUT_NODE && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              This step’s tool declares no inputs.
            </Typography>
          )}
        </>
      )}
      {error && (
        <Typography variant="body2" role="alert" sx={{ color: 'error.main', mt: 1 }}>
          {error}
        </Typography>
      )}
    </Popover>
  )
}
