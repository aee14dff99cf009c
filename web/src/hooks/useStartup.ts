//! Once per mounted app: connect its socket, load the tool catalog and the library list, and
//! bring back the Chat panel the address bar names. Unmounted, the app lets go of the page: its
//! socket closes and an editing session ends (its draft kept, as when the page goes away).
import { useEffect } from 'react'
import { useApp } from '../app/AppContext'
import { socketSinks } from '../state/runWiring'

export function useStartup(): void {
  const app = useApp()
  useEffect(() => {
    app.socket.start(socketSinks(app))
    void app.stores.catalog.getState().load()
    void app.library.load()
    app.chat.restore()
    return () => {
      app.socket.stop()
      app.editing.stop()
    }
  }, [app])
}
