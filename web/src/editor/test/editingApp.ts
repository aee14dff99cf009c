//! An app in edit mode on an editor store the test built: what the builder's components read
//! (the session's handle, the tool catalog), without loading the editor chunk or a server.
import { createApp, type App } from '../../app/createApp'
import type { EditorStore } from '../store/createEditorStore'
import { tools } from './fixtures'

export function editingApp(store: EditorStore, app: App = createApp()): App {
  app.stores.catalog.setState({ tools, categories: [], loaded: true })
  app.stores.editSession.setState({ active: true, handle: { store, end: () => {}, confirmLeave: async () => true, importText: async () => {} } })
  return app
}
