//! Lets other panels drive the canvas: `focus(id)` selects a node and centres the viewport on it
//! (the inspector's "jump to the referenced node"). Also what the layout needs to know of the
//! canvas: its size, and the view the last graph was laid out for. And the sub-workflows opened
//! from `workflow` steps, drawn in place of the open workflow's graph. And whether the nodes show
//! the cost and time overlay.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { GraphView } from '../api/types'
import { useApp } from '../app/AppContext'
import { readStored, writeStored } from '../hooks/useStoredState'
import type { LayoutView } from './layout'
import type { SubLevel } from './subWorkflow'

type Centre = (id: string) => void
type Select = (id: string | undefined) => void

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
  /**
   * The sub-workflows opened from graph `of` (the open workflow's), outermost first: the canvas
   * draws the last. Kept with the graph they were opened from, so opening another workflow
   * leaves them behind without anyone clearing them.
   */
  sub?: { of: GraphView; trail: SubLevel[] }
  /** Draws `level`, opened from a step of the graph `depth` levels into the trail from `of`. */
  openSub(of: GraphView, depth: number, level: SubLevel): void
  /** Back to the graph `depth` levels into the trail (0: the open workflow's). */
  backTo(depth: number): void
  /** The cost and time overlay: each step's duration and cost, and the run's critical path. */
  overlay: boolean
  /** Turns the overlay on or off (remembered in this browser). */
  setOverlay(on: boolean): void
}

const OVERLAY_KEY = 'vai.canvas.costOverlay'

const NO_LEVELS: SubLevel[] = []

/** The sub-workflows opened from `graph`, outermost first (none when they were opened from another). */
export function trailOf(store: CanvasStore, graph: GraphView | undefined): SubLevel[] {
  return store.sub && store.sub.of === graph ? store.sub.trail : NO_LEVELS
}

/**
 * `select`: how a node becomes the selected one (the workflow store's). Moving between a
 * workflow and its sub-workflows clears the selection: the inspector shows the open workflow's
 * steps, and a step id of one level means nothing in another.
 */
export function createCanvasStore(select: Select): StoreApi<CanvasStore> {
  return createStore<CanvasStore>()((set, get) => ({
    overlay: readStored<boolean>(OVERLAY_KEY, false) === true,
    setOverlay: (on) => {
      writeStored(OVERLAY_KEY, on)
      set({ overlay: on })
    },
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
    openSub: (of, depth, level) => {
      select(undefined)
      set({ sub: { of, trail: [...trailOf(get(), of).slice(0, depth), level] } })
    },
    backTo: (depth) => {
      const { sub } = get()
      if (!sub || depth >= sub.trail.length) return
      select(undefined)
      set({ sub: { ...sub, trail: sub.trail.slice(0, depth) } })
    },
  }))
}

/** A narrow selector over the app's canvas store: the component re-renders only when its answer changes. */
export function useCanvasStore<T>(selector: (s: CanvasStore) => T): T {
  return useStore(useApp().stores.canvas, selector)
}
