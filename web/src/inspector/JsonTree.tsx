import ChevronRight from '@mui/icons-material/ChevronRight'
import ExpandMore from '@mui/icons-material/ExpandMore'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import { useState } from 'react'
import { isRecord } from '../state/definition'
import { monoFont } from '../theme'

const PAGE = 50
const LONG_STRING = 400

/** A collapsible JSON tree; the first `openDepth` levels start expanded. */
export default function JsonTree({ value, openDepth = 2 }: { value: unknown; openDepth?: number }) {
  return (
    <Box sx={{ fontFamily: monoFont, fontSize: 12, lineHeight: 1.6, overflowX: 'auto' }}>
      <JsonNode value={value} depth={0} openDepth={openDepth} />
    </Box>
  )
}

interface NodeProps {
  name?: string
  value: unknown
  depth: number
  openDepth: number
}

function JsonNode({ name, value, depth, openDepth }: NodeProps) {
  const [open, setOpen] = useState(depth < openDepth)
  const [shown, setShown] = useState(PAGE)
  const label = name !== undefined && <Box component="span" sx={{ color: 'text.secondary' }}>{name}: </Box>
  const isArray = Array.isArray(value)
  if (!isArray && !isRecord(value)) {
    return (
      <Box sx={{ pl: depth === 0 ? 0 : 2.5, overflowWrap: 'anywhere' }}>
        {label}
        <Scalar value={value} />
      </Box>
    )
  }
  const entries: [string, unknown][] = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value)
  const summary = isArray ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]` : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`
  return (
    <Box sx={{ pl: depth === 0 ? 0 : 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <IconButton size="small" sx={{ p: 0, mr: 0.25 }} aria-expanded={open} aria-label={open ? `Collapse ${name ?? 'value'}` : `Expand ${name ?? 'value'}`} onClick={() => setOpen(!open)} disabled={entries.length === 0}>
          {open ? <ExpandMore sx={{ fontSize: 16 }} /> : <ChevronRight sx={{ fontSize: 16 }} />}
        </IconButton>
        {label}
        <Box component="span" sx={{ color: 'text.disabled' }}>{summary}</Box>
      </Box>
      {open && (
        <Box sx={{ pl: 1.5, borderLeft: 1, borderColor: 'divider', ml: 0.9 }}>
          {entries.slice(0, shown).map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
          {entries.length > shown && (
            <Button size="small" onClick={() => setShown(shown + PAGE * 4)}>
              Show {Math.min(PAGE * 4, entries.length - shown)} more of {entries.length - shown}
            </Button>
          )}
        </Box>
      )}
    </Box>
  )
}

function Scalar({ value }: { value: unknown }) {
  const [full, setFull] = useState(false)
  if (typeof value === 'string') {
    const long = value.length > LONG_STRING && !full
    return (
      <Box component="span" sx={{ color: 'success.main', whiteSpace: 'pre-wrap' }}>
        &quot;{long ? `${value.slice(0, LONG_STRING)}…` : value}&quot;
        {long && (
          <Button size="small" sx={{ minWidth: 0, py: 0, ml: 0.5 }} onClick={() => setFull(true)}>
            all {value.length} chars
          </Button>
        )}
      </Box>
    )
  }
  const color = typeof value === 'number' ? 'info.main' : 'warning.main'
  return (
    <Box component="span" sx={{ color }}>
      {value === undefined ? 'undefined' : JSON.stringify(value)}
    </Box>
  )
}
