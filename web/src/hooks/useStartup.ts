//! Once per page: connect the run socket and load the tool catalog and the library list.
import { useEffect } from 'react'
import { runSocket } from '../api/socket'
import { useCatalogStore } from '../state/catalogStore'
import { loadLibrary } from '../state/libraryActions'
import { adoptRun } from '../state/runActions'

export function useStartup(): void {
  useEffect(() => {
    runSocket.start(adoptRun)
    void useCatalogStore.getState().load()
    void loadLibrary()
  }, [])
}
