//! Whether the API refused this page for want of the access token `vai playground` printed
//! (docs/api.md, "Access token"): the shell then says how to get in instead of drawing panels
//! that cannot load.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'

export interface AccessStore {
  denied: boolean
  deny(): void
}

export function createAccessStore(): StoreApi<AccessStore> {
  return createStore<AccessStore>()((set) => ({
    denied: false,
    deny: () => set({ denied: true }),
  }))
}

/** A narrow selector over the app's access store: the component re-renders only when its answer changes. */
export function useAccessStore<T>(selector: (s: AccessStore) => T): T {
  return useStore(useApp().stores.access, selector)
}
