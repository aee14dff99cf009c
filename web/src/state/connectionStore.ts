//! Whether the run socket is connected, so the UI can say so instead of silently going stale.
import { create } from 'zustand'

export type ConnectionState = 'connecting' | 'open' | 'closed'

export interface ConnectionStore {
  state: ConnectionState
  /** True once the socket has opened at least once (a later close is a lost connection). */
  everOpened: boolean
  setState(state: ConnectionState): void
}

export const useConnectionStore = create<ConnectionStore>()((set) => ({
  state: 'connecting',
  everOpened: false,
  setState: (state) => set((s) => ({ state, everOpened: s.everOpened || state === 'open' })),
}))
