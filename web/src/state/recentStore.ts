//! The recent-workflows list as a store, persisted through recents.ts.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import { loadRecents, saveRecents, withRecent, type RecentEntry } from './recents'

export interface RecentStore {
  recents: RecentEntry[]
  /** Remembers `entry` first; `replaces` names an entry it supersedes (withRecent). */
  remember(entry: Omit<RecentEntry, 'openedAt'>, replaces?: string): void
  forget(key: string): void
}

/** A store holding the list saved when it is created. */
export function createRecentStore(): StoreApi<RecentStore> {
  return createStore<RecentStore>()((set, get) => ({
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

/** A narrow selector over the app's recent workflows: the component re-renders only when its answer changes. */
export function useRecentStore<T>(selector: (s: RecentStore) => T): T {
  return useStore(useApp().stores.recents, selector)
}
