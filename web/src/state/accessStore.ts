//! Whether the API refused this page for want of the access token `vai playground` printed
//! (docs/api.md, "Access token"): the shell then says how to get in instead of drawing panels
//! that cannot load.
import { create } from 'zustand'
import { onAccessDenied } from '../api/client'

export interface AccessStore {
  denied: boolean
  deny(): void
}

export function createAccessStore() {
  return create<AccessStore>()((set) => ({
    denied: false,
    deny: () => set({ denied: true }),
  }))
}

export const useAccessStore = createAccessStore()

onAccessDenied(() => useAccessStore.getState().deny())
