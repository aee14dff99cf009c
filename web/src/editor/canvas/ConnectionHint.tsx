//! While a connection is dragged, a node it could never reach (it would close a cycle, or it is
//! the inputs node) is refused at once: dimmed, its reason beside the pointer and in its title,
//! and releasing on it opens no menu (EditorFlow). React Flow refuses the node's handle itself
//! (`isValidConnection`); this covers the whole node, where connections are usually released.
import GlobalStyles from '@mui/material/GlobalStyles'
import Paper from '@mui/material/Paper'
import Popper from '@mui/material/Popper'
import { useConnection } from '@xyflow/react'
import { useEffect, useState } from 'react'
import { useEditorStore } from '../useEditor'
import { refusedOver } from './refusedOver'
import { nodeAt } from './useCanvasDrop'

const REFUSED = 'data-refused'

interface Hint {
  /** The drag it belongs to (`useConnection` below). */
  drag: string
  /** The React Flow key of the refused node. */
  key: string
  reason: string
  x: number
  y: number
}

export default function ConnectionHint() {
  const store = useEditorStore()
  // A string, so the pointer's every move does not re-render this: only a new drag does.
  const dragging = useConnection((c) => (c.inProgress ? `${c.fromHandle.type}:${c.fromNode.id}` : ''))
  const [last, setHint] = useState<Hint>()
  // Shown only during the drag it belongs to.
  const hint = last?.drag === dragging ? last : undefined

  useEffect(() => {
    if (!dragging) return
    const reversed = dragging.startsWith('target:')
    const fromKey = dragging.slice(dragging.indexOf(':') + 1)
    const onMove = (e: MouseEvent | TouchEvent) => {
      const point = 'touches' in e ? e.touches[0] : e
      if (!point) return
      const key = nodeAt(point.clientX, point.clientY)
      const reason = refusedOver(store, fromKey, reversed, key)
      setHint(reason && key ? { drag: dragging, key, reason, x: point.clientX, y: point.clientY } : undefined)
    }
    document.addEventListener('mousemove', onMove)
    document.addEventListener('touchmove', onMove)
    return () => {
      document.removeEventListener('mousemove', onMove)
      document.removeEventListener('touchmove', onMove)
      setHint(undefined)
    }
  }, [dragging, store])

  // The refused node carries the reason while the pointer is over it.
  const key = hint?.key
  const reason = hint?.reason
  useEffect(() => {
    if (key === undefined || reason === undefined) return
    const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(key)}"]`)
    if (!el) return
    const title = el.getAttribute('title')
    el.setAttribute(REFUSED, 'true')
    el.setAttribute('title', reason)
    return () => {
      el.removeAttribute(REFUSED)
      if (title === null) el.removeAttribute('title')
      else el.setAttribute('title', title)
    }
  }, [key, reason])

  const anchor = hint ? { getBoundingClientRect: () => new DOMRect(hint.x, hint.y, 0, 0) } : null
  return (
    <>
      <GlobalStyles styles={{ [`.react-flow__node[${REFUSED}]`]: { opacity: 0.45, cursor: 'not-allowed' } }} />
      <Popper
        open={hint !== undefined}
        anchorEl={anchor}
        placement="bottom-start"
        sx={{ zIndex: 'tooltip' }}
        modifiers={[{ name: 'offset', options: { offset: [12, 12] } }]}
      >
        <Paper elevation={6} sx={{ px: 1.5, py: 1, maxWidth: 360, typography: 'body2' }}>
          {hint?.reason}
        </Paper>
      </Popper>
    </>
  )
}
