//! Whether the run socket is connected, so the UI can say so instead of silently going stale.
import { create } from 'zustand'
import type { ConnectionState } from '../api/socket'

export interface ConnectionStore {
  state: ConnectionState
  /** True once the socket has opened at least once (a later close is a lost connection). */
  everOpened: boolean
  setState(state: ConnectionState): void
}

export function createConnectionStore() {
  return create<ConnectionStore>()((set) => ({
    state: 'connecting',
    everOpened: false,
    setState: (state) => set((s) => ({ state, everOpened: s.everOpened || state === 'open' })),
  }))
}

export const useConnectionStore = createConnectionStore()
