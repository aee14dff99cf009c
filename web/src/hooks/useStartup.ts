//! Once per page: connect the run socket and load the tool catalog and the library list.
import { useEffect } from 'react'
import { useCatalogStore } from '../state/catalogStore'
import { loadLibrary } from '../state/libraryActions'
import { connectRunSocket } from '../state/runWiring'

export function useStartup(): void {
  useEffect(() => {
    connectRunSocket()
    void useCatalogStore.getState().load()
    void loadLibrary()
  }, [])
}
