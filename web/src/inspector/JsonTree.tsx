import ChevronRight from '@mui/icons-material/ChevronRight'
import ExpandMore from '@mui/icons-material/ExpandMore'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import { useState, type DragEvent } from 'react'
import { useEditSession } from '../editor/editSession'
import { isRecord } from '../state/definition'
import { monoFont } from '../theme'

const PAGE = 50
const LONG_STRING = 400
/** The drag type of a reference path dragged from an output onto the canvas. */
export const REF_DRAG_TYPE = 'application/x-vai-ref'
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * A collapsible JSON tree; the first `openDepth` levels start expanded. With `refPath` (the
 * path of `value`, e.g. `search.output`) and while editing, keys can be dragged as references.
 */
export default function JsonTree({ value, openDepth = 2, refPath }: { value: unknown; openDepth?: number; refPath?: string }) {
  const editing = useEditSession((s) => s.active)
  return (
    <Box sx={{ fontFamily: monoFont, fontSize: 12, lineHeight: 1.6, overflowX: 'auto' }}>
      <JsonNode value={value} depth={0} openDepth={openDepth} path={editing ? refPath : undefined} />
    </Box>
  )
}

interface NodeProps {
  name?: string
  value: unknown
  depth: number
  openDepth: number
  /** The reference path of this value, when it can be dragged. */
  path?: string
}

/** `a.b` + key: `.key` for identifiers, `[i]` for indices; undefined for other keys. */
function childPath(path: string | undefined, key: string, isIndex: boolean): string | undefined {
  if (path === undefined) return undefined
  if (isIndex) return `${path}[${key}]`
  return IDENT.test(key) ? `${path}.${key}` : undefined
}

function JsonNode({ name, value, depth, openDepth, path }: NodeProps) {
  const [open, setOpen] = useState(depth < openDepth)
  const [shown, setShown] = useState(PAGE)
  const drag =
    path !== undefined && name !== undefined
      ? {
          draggable: true,
          title: `Drag onto a step to read {{ ${path} }}`,
          onDragStart: (e: DragEvent) => {
            e.dataTransfer.setData(REF_DRAG_TYPE, path)
            e.dataTransfer.setData('text/plain', `{{ ${path} }}`)
            e.dataTransfer.effectAllowed = 'link'
          },
        }
      : {}
  const label = name !== undefined && (
    <Box
      component="span"
      data-ref-path={drag.draggable ? path : undefined}
      sx={{ color: 'text.secondary', cursor: drag.draggable ? 'grab' : undefined }}
      {...drag}
    >
      {name}:{' '}
    </Box>
  )
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
        <IconButton
          size="small"
          sx={{ p: 0, mr: 0.25 }}
          aria-expanded={open}
          aria-label={open ? `Collapse ${name ?? 'value'}` : `Expand ${name ?? 'value'}`}
          onClick={() => setOpen(!open)}
          disabled={entries.length === 0}
        >
          {open ? <ExpandMore sx={{ fontSize: 16 }} /> : <ChevronRight sx={{ fontSize: 16 }} />}
        </IconButton>
        {label}
        <Box component="span" sx={{ color: 'text.disabled' }}>
          {summary}
        </Box>
      </Box>
      {open && (
        <Box sx={{ pl: 1.5, borderLeft: 1, borderColor: 'divider', ml: 0.9 }}>
          {entries.slice(0, shown).map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} path={childPath(path, k, isArray)} />
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
