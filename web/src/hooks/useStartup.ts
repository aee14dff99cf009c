//! Once per page: connect the run socket and load the tool catalog and the library list.
import { useEffect } from 'react'
import { runSocket } from '../api/socket'
import { useCatalogStore } from '../state/catalogStore'
import { loadLibrary } from '../state/libraryActions'

export function useStartup(): void {
  useEffect(() => {
    runSocket.start()
    void useCatalogStore.getState().load()
    void loadLibrary()
  }, [])
}
