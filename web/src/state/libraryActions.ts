//! Loading the library list (built-ins, examples and files of the served directory).
import type { AppCore } from '../app/createApp'
import { errorInfo } from '../api/client'

export interface LibraryActions {
  load(): Promise<void>
}

export function createLibraryActions({ stores, api }: AppCore): LibraryActions {
  return {
    load: async () => {
      const store = stores.workflow.getState()
      store.setLibraryState({ libraryLoading: true, libraryError: undefined })
      try {
        const { workflows } = await api.listWorkflows()
        store.setLibrary(workflows)
        store.setLibraryState({ libraryLoading: false })
      } catch (e) {
        store.setLibraryState({ libraryLoading: false, libraryError: errorInfo(e).message })
      }
    },
  }
}
