//! Loading the library list (built-ins, examples and files of the served directory).
import { api, errorInfo } from '../api/client'
import { useWorkflowStore } from './workflowStore'

export async function loadLibrary(): Promise<void> {
  const store = useWorkflowStore.getState()
  store.setLibraryState({ libraryLoading: true, libraryError: undefined })
  try {
    const { workflows } = await api.listWorkflows()
    store.setLibrary(workflows)
    store.setLibraryState({ libraryLoading: false })
  } catch (e) {
    store.setLibraryState({ libraryLoading: false, libraryError: errorInfo(e).message })
  }
}
