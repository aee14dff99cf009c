//! The recent-workflows list as a store, persisted through recents.ts.
import { create } from 'zustand'
import { loadRecents, saveRecents, withRecent, type RecentEntry } from './recents'

export interface RecentStore {
  recents: RecentEntry[]
  /** Remembers `entry` first; `replaces` names an entry it supersedes (withRecent). */
  remember(entry: Omit<RecentEntry, 'openedAt'>, replaces?: string): void
  forget(key: string): void
}

/** A store holding the list saved when it is created. */
export function createRecentStore() {
  return create<RecentStore>()((set, get) => ({
    recents: loadRecents(),
    remember: (entry, replaces) => {
      const recents = withRecent(get().recents, { ...entry, openedAt: Date.now() }, replaces)
      saveRecents(recents)
      set({ recents })
    },
    forget: (key) => {
      const recents = get().recents.filter((e) => e.key !== key)
      saveRecents(recents)
      set({ recents })
    },
  }))
}

export const useRecentStore = createRecentStore()
