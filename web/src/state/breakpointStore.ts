//! The steps a run pauses before, as toggled on the canvas. They belong to the page, not to the
//! workflow: kept in the address (`breakpointLocation.ts`), cleared when another workflow opens,
//! never written into the workflow's steps. Runs are started, and resumed, with them.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import { breakParam, setBreakParam } from './breakpointLocation'

export interface BreakpointStore {
  /** The workflow (`?workflow=` key) these breakpoints are for. */
  key?: string
  /** Step ids, sorted, without repeats. */
  ids: string[]
  toggle(id: string): void
  /**
   * A workflow was opened (`steps`: its step ids). The first one after the page loads takes
   * the breakpoints the address names; any other starts without.
   */
  forWorkflow(key: string | undefined, steps: readonly string[]): void
  /** The followed run's breakpoints changed (another tab started or resumed it): show those. */
  adopt(ids: readonly string[]): void
}

export function createBreakpointStore(): StoreApi<BreakpointStore> {
  return createStore<BreakpointStore>()((set, get) => ({
    ids: [],
    toggle: (id) => {
      const { ids } = get()
      const next = ids.includes(id) ? ids.filter((i) => i !== id) : [...ids, id].sort()
      set({ ids: next })
      setBreakParam(next)
    },
    forWorkflow: (key, steps) => {
      const before = get()
      if (key === before.key) return
      const known = new Set(steps)
      const ids = before.key === undefined && key !== undefined ? breakParam().filter((id) => known.has(id)) : []
      set({ key, ids })
      setBreakParam(ids)
    },
    adopt: (ids) => {
      const next = [...new Set(ids)].sort()
      if (sameIds(next, get().ids)) return
      set({ ids: next })
      setBreakParam(next)
    },
  }))
}

export function sameIds(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((id, i) => id === b[i]))
}

/** A narrow selector over the app's breakpoints: the component re-renders only when its answer changes. */
export function useBreakpointStore<T>(selector: (s: BreakpointStore) => T): T {
  return useStore(useApp().stores.breakpoints, selector)
}
