//! Keyboard while editing: Delete/Backspace delete the selection, Ctrl/Cmd+Z undo, Shift+Z or Y
//! redo, Ctrl/Cmd+D duplicate, Ctrl/Cmd+S save, Escape clears the selection; copy and paste go
//! through the clipboard events (so they work across tabs with no permission prompt). Keys
//! typed into a field are the field's own, and only the canvas (or nothing) focused counts.
import { useReactFlow } from '@xyflow/react'
import { useEffect } from 'react'
import { ownsKeys } from '../../shell/ownsKeys'
import { isStepNode } from '../doc/model'
import { useApp } from '../../app/AppContext'
import { useEditorStore } from '../useEditor'

/** Whether a key event belongs to the canvas rather than to a field or a dialog. */
export function isCanvasTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return true
  if (target === document.body) return true
  if (ownsKeys(target)) return false
  return target.closest('main[aria-label="Canvas"]') !== null
}

/** The flow pane's rectangle on screen (the canvas region also holds the palette and toolbar). */
export function flowRect(): DOMRect | undefined {
  return document.querySelector('main[aria-label="Canvas"] .react-flow')?.getBoundingClientRect()
}

/** Save is asked for through this event, so the toolbar's save flow (dialogs) handles it. */
export const SAVE_EVENT = 'vai-editor-save'

export function useEditorKeys(): void {
  const store = useEditorStore()
  const session = useApp().stores.editSession
  const { screenToFlowPosition } = useReactFlow()

  useEffect(() => {
    let pointer: { x: number; y: number } | undefined
    const onMove = (e: PointerEvent) => {
      pointer = { x: e.clientX, y: e.clientY }
    }
    const pasteAt = () => {
      const canvas = flowRect()
      const inside = pointer && canvas && pointer.x >= canvas.left && pointer.x <= canvas.right && pointer.y >= canvas.top && pointer.y <= canvas.bottom
      const screen = inside ? pointer! : canvas ? { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 3 } : undefined
      return screen ? screenToFlowPosition(screen) : undefined
    }
    const onKey = (e: KeyboardEvent) => {
      if (session.getState().leaving) return
      const mod = e.ctrlKey || e.metaKey
      const key = e.key.toLowerCase()
      if (mod && key === 's') {
        e.preventDefault()
        window.dispatchEvent(new Event(SAVE_EVENT))
        return
      }
      if (!isCanvasTarget(e.target)) return
      const s = store.getState()
      if (mod && key === 'z') {
        e.preventDefault()
        if (e.shiftKey) s.redo()
        else s.undo()
      } else if (mod && key === 'y') {
        e.preventDefault()
        s.redo()
      } else if (mod && key === 'd') {
        e.preventDefault()
        void s.duplicateSelection()
      } else if (!mod && (e.key === 'Delete' || e.key === 'Backspace')) {
        e.preventDefault()
        if (s.edgeSelection.length > 0) void s.disconnectEdges(s.edgeSelection)
        if (s.selection.length > 0) void s.deleteNodes(s.selection)
      } else if (e.key === 'Escape') {
        s.select([])
        s.selectEdges([])
      }
    }
    const onCopy = (e: ClipboardEvent) => {
      if (!isCanvasTarget(e.target)) return
      const text = store.getState().copySelection()
      if (!text) return
      e.clipboardData?.setData('text/plain', text)
      e.preventDefault()
      const n = store.getState().selection.filter(isStepNode).length
      store.getState().setNotice({ tone: 'info', text: `Copied ${n} step${n === 1 ? '' : 's'}.` })
    }
    const onPaste = (e: ClipboardEvent) => {
      if (!isCanvasTarget(e.target)) return
      const text = e.clipboardData?.getData('text/plain')
      if (!text) return
      e.preventDefault()
      void store.getState().paste(text, pasteAt())
    }
    window.addEventListener('pointermove', onMove)
    window.addEventListener('keydown', onKey)
    document.addEventListener('copy', onCopy)
    document.addEventListener('paste', onPaste)
    return () => {
      window.removeEventListener('pointermove', onMove)
      window.removeEventListener('keydown', onKey)
      document.removeEventListener('copy', onCopy)
      document.removeEventListener('paste', onPaste)
    }
  }, [store, screenToFlowPosition, session])
}
