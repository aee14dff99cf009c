//! Lets other panels drive the canvas: `useCanvasStore.getState().focus(id)` selects a node and
//! centres the viewport on it (the inspector's "jump to the referenced node").
import { create } from 'zustand'
import { useWorkflowStore } from '../state/workflowStore'

type Centre = (id: string) => void

export interface CanvasStore {
  /** Set by the mounted canvas; absent while no graph is drawn. */
  centre?: Centre
  /** Registers the canvas's centring function; returns the function that unregisters it. */
  attach(centre: Centre): () => void
  focus(id: string): void
}

export const useCanvasStore = create<CanvasStore>()((set, get) => ({
  attach: (centre) => {
    set({ centre })
    return () => {
      if (get().centre === centre) set({ centre: undefined })
    }
  },
  focus: (id) => {
    useWorkflowStore.getState().select(id)
    get().centre?.(id)
  },
}))

/** Selects node `id` and brings it into view. */
export function focusNode(id: string): void {
  useCanvasStore.getState().focus(id)
}
