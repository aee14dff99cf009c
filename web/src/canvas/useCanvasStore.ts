//! Lets other panels drive the canvas: `useCanvasStore.getState().focus(id)` selects a node and
//! centres the viewport on it (the inspector's "jump to the referenced node"). Also what the
//! layout needs to know of the canvas: its size, and the view the last graph was laid out for.
import { create } from 'zustand'
import { useWorkflowStore } from '../state/workflowStore'
import type { LayoutView } from './layout'

type Centre = (id: string) => void

export interface CanvasStore {
  /** Set by the mounted canvas; absent while no graph is drawn. */
  centre?: Centre
  /** Registers the canvas's centring function; returns the function that unregisters it. */
  attach(centre: Centre): () => void
  focus(id: string): void
  /** The canvas region's size in CSS px, once measured (not a subscription: read it when laying out). */
  size?: { width: number; height: number }
  /** The view the read-only canvas laid its graph out for: the builder lays out for the same, so that entering edit mode moves nothing. */
  laidFor?: LayoutView
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
