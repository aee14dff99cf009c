//! Once per page: connect the run socket, load the tool catalog and the library list, and bring
//! back the Chat panel the address bar names.
import { useEffect } from 'react'
import { restoreChat } from '../chat/chatActions'
import { useCatalogStore } from '../state/catalogStore'
import { loadLibrary } from '../state/libraryActions'
import { connectRunSocket } from '../state/runWiring'

export function useStartup(): void {
  useEffect(() => {
    connectRunSocket()
    void useCatalogStore.getState().load()
    void loadLibrary()
    restoreChat()
  }, [])
}
