//! Server facts that do not change while the page is open: tools, categories, provider status.
import { create } from 'zustand'
import { api, errorInfo } from '../api/client'
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

export function createCatalogStore() {
  return create<CatalogStore>()((set, get) => ({
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

export const useCatalogStore = createCatalogStore()
