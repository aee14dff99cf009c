//! The builder's fit, as the read-only canvas's: titles legible, 1.5× larger in presenter mode.
//! Once its nodes are measured it fits them — first remaking the layout for this canvas when the
//! one it started with (made for the wider read-only canvas) no longer fits — and again when
//! presenter mode starts or ends.
import { useEffect, useRef } from 'react'
import { useCanvasView, useFitReady, useLegibleFit } from '../../canvas/useLegibleFit'
import { usePresenterStore } from '../../shell/presenter'
import type { EditorStore } from '../store/createEditorStore'

export function useEditorFit(store: EditorStore): void {
  const presenting = usePresenterStore((s) => s.on)
  const ready = useFitReady()
  const legibleFit = useLegibleFit()
  const viewNow = useCanvasView()
  const fittedFor = useRef<boolean>(undefined)
  useEffect(() => {
    if (!ready || fittedFor.current === presenting) return
    const first = fittedFor.current === undefined
    fittedFor.current = presenting
    // Remade: fitted once React Flow has the new positions.
    if (first && store.getState().fitLayoutTo(viewNow())) requestAnimationFrame(() => legibleFit(undefined, 0))
    else legibleFit(undefined, first ? 0 : undefined)
  }, [ready, presenting, legibleFit, viewNow, store])
}
