//! Dropping on the canvas while editing: a tool from the palette becomes a step where it is
//! dropped; a field dragged from a step's output view, dropped on another step, opens the connect
//! menu reading that field.
import { useReactFlow } from '@xyflow/react'
import { useCallback, type DragEvent } from 'react'
import { REF_DRAG_TYPE } from '../../inspector/JsonTree'
import { noteIdOf } from '../doc/model'
import { idOfKey } from '../doc/nodeKeys'
import { TOOL_DRAG_TYPE } from '../palette/Palette'
import type { ConnectRequest } from '../store/state'
import { useEditorStore } from '../useEditor'

/** Half a step node: a dropped tool is centred on the pointer. */
const TOOL_HALF = { x: 120, y: 46 }

/** The node (its React Flow key) under a screen point, when a connection or a field is released over it. */
export function nodeAt(x: number, y: number): string | undefined {
  const el = document.elementFromPoint?.(x, y)?.closest<HTMLElement>('.react-flow__node')
  return el?.dataset.id
}

export function useCanvasDrop(onConnectRequest: (request: ConnectRequest) => void) {
  const store = useEditorStore()
  const { screenToFlowPosition } = useReactFlow()

  const onDragOver = useCallback((e: DragEvent) => {
    const types = Array.from(e.dataTransfer.types)
    if (!types.includes(TOOL_DRAG_TYPE) && !types.includes(REF_DRAG_TYPE)) return
    e.preventDefault()
    e.dataTransfer.dropEffect = types.includes(TOOL_DRAG_TYPE) ? 'copy' : 'link'
  }, [])

  const onDrop = useCallback(
    (e: DragEvent) => {
      const tool = e.dataTransfer.getData(TOOL_DRAG_TYPE)
      const path = e.dataTransfer.getData(REF_DRAG_TYPE)
      if (!tool && !path) return
      e.preventDefault()
      if (tool) {
        const p = screenToFlowPosition({ x: e.clientX, y: e.clientY })
        store.getState().addStep(tool, { x: p.x - TOOL_HALF.x, y: p.y - TOOL_HALF.y })
        return
      }
      const key = nodeAt(e.clientX, e.clientY)
      const target = key === undefined ? undefined : idOfKey(store.getState().nodeKeys, key)
      const source = path.split(/[.[]/)[0]
      if (!target || target === source || noteIdOf(target) !== undefined) {
        store.getState().setNotice({ tone: 'info', text: `Drop ${path} onto the step that should read it.` })
        return
      }
      onConnectRequest({ source: source === 'inputs' ? '__inputs' : source, target, path, at: { left: e.clientX, top: e.clientY } })
    },
    [onConnectRequest, screenToFlowPosition, store],
  )

  return { onDragOver, onDrop }
}
