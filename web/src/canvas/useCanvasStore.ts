//! Lets other panels drive the canvas: `focus(id)` selects a node and centres the viewport on it
//! (the inspector's "jump to the referenced node"). Also what the layout needs to know of the
//! canvas: its size, and the view the last graph was laid out for.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { LayoutView } from './layout'

type Centre = (id: string) => void

export interface CanvasStore {
  /** Set by the mounted canvas; absent while no graph is drawn. */
  centre?: Centre
  /** Registers the canvas's centring function; returns the function that unregisters it. */
  attach(centre: Centre): () => void
  /** Selects node `id` and brings it into view. */
  focus(id: string): void
  /** The canvas region's size in CSS px, once measured (not a subscription: read it when laying out). */
  size?: { width: number; height: number }
  /** The view the read-only canvas laid its graph out for: the builder lays out for the same, so that entering edit mode moves nothing. */
  laidFor?: LayoutView
}

/** `select`: how a node becomes the selected one (the workflow store's). */
export function createCanvasStore(select: (id: string) => void): StoreApi<CanvasStore> {
  return createStore<CanvasStore>()((set, get) => ({
    attach: (centre) => {
      set({ centre })
      return () => {
        if (get().centre === centre) set({ centre: undefined })
      }
    },
    focus: (id) => {
      select(id)
      get().centre?.(id)
    },
  }))
}

/** A narrow selector over the app's canvas store: the component re-renders only when its answer changes. */
export function useCanvasStore<T>(selector: (s: CanvasStore) => T): T {
  return useStore(useApp().stores.canvas, selector)
}
