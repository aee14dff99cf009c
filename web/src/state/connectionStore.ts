//! Whether the run socket is connected, so the UI can say so instead of silently going stale.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { ConnectionState } from '../api/socket'

export interface ConnectionStore {
  state: ConnectionState
  /** True once the socket has opened at least once (a later close is a lost connection). */
  everOpened: boolean
  setState(state: ConnectionState): void
}

export function createConnectionStore(): StoreApi<ConnectionStore> {
  return createStore<ConnectionStore>()((set) => ({
    state: 'connecting',
    everOpened: false,
    setState: (state) => set((s) => ({ state, everOpened: s.everOpened || state === 'open' })),
  }))
}

/** A narrow selector over the app's connection state: the component re-renders only when its answer changes. */
export function useConnectionStore<T>(selector: (s: ConnectionStore) => T): T {
  return useStore(useApp().stores.connection, selector)
}
