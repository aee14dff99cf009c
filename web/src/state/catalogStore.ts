//! Server facts that do not change while the page is open: tools, categories, provider status.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import { errorInfo, type Api } from '../api/client'
import type { CategoryView, ConfigStatus, ToolView } from '../api/types'

export interface CatalogStore {
  tools: Record<string, ToolView>
  categories: CategoryView[]
  config?: ConfigStatus
  /** Why the catalog could not be loaded (usually: server unreachable). */
  error?: string
  loaded: boolean
  load(): Promise<void>
}

export function createCatalogStore(api: Api): StoreApi<CatalogStore> {
  return createStore<CatalogStore>()((set, get) => ({
    tools: {},
    categories: [],
    loaded: false,
    load: async () => {
      if (get().loaded) return
      try {
        const [catalog, config] = await Promise.all([api.tools(), api.configStatus()])
        const tools: Record<string, ToolView> = {}
        for (const tool of catalog.tools) tools[tool.name] = tool
        set({ tools, categories: catalog.categories, config, loaded: true, error: undefined })
      } catch (e) {
        set({ error: errorInfo(e).message })
      }
    },
  }))
}

/** A narrow selector over the app's catalog: the component re-renders only when its answer changes. */
export function useCatalogStore<T>(selector: (s: CatalogStore) => T): T {
  return useStore(useApp().stores.catalog, selector)
}
