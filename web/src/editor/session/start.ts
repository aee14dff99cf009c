//! The editor chunk's entry: starts an editing session (store, bindings, handle) for what
//! `app.editing.start` asked for.
import type { App } from '../../app/createApp'
import { checkImport } from '../../state/checkImport'
import { setUrl } from '../../state/openWorkflow'
import { removeDraft } from '../drafts'
import type { EditorHandle, StartRequest } from '../editSession'
import { createEditorStore } from '../store/createEditorStore'
import { httpEditorApi, type EditorApi } from '../store/editorApi'
import type { EditorInit } from '../store/state'
import { bind } from './bind'
import { isNewKey, opening } from './open'

/**
 * A document opened without the server's plan of it (a kept draft, a starter) is planned first,
 * so the canvas lays it out along its edges from the start instead of in one column.
 */
async function withGraph(api: EditorApi, init: EditorInit): Promise<EditorInit> {
  if (init.graph || init.doc.steps.length === 0) return init
  try {
    const plan = await api.plan(init.doc)
    return plan.graph ? { ...init, graph: plan.graph, diagnostics: plan.diagnostics } : init
  } catch {
    // The server is gone: the editor opens anyway and says so on its first analysis.
    return init
  }
}

export async function start(app: App, request: StartRequest): Promise<void> {
  const { stores, socket } = app
  const session = stores.editSession
  const opened = opening(request, stores.workflow.getState())
  if ('error' in opened) {
    session.setState({ error: opened.error })
    return
  }
  session.getState().handle?.end(false)
  await stores.catalog.getState().load()
  const { restoredAt } = opened
  const api = httpEditorApi(app.api)
  const init = await withGraph(api, opened.init)
  // Laid out for the canvas the read-only view laid it out for, so that nothing moves.
  const store = createEditorStore({ ...init, view: stores.canvas.getState().laidFor }, { api, tools: () => stores.catalog.getState().tools })
  const key = init.source.key
  if (isNewKey(key) || stores.workflow.getState().current?.key !== key) {
    // A new workflow or a restored one of its kind: nothing was fetched, the editor is the source.
    socket.unfollow()
    stores.run.getState().reset()
    stores.workflow.getState().setOpened({ current: { key, label: init.source.label, text: '', definition: init.doc }, graph: undefined, diagnostics: [] })
    setUrl(key, request.kind === 'new' ? 'push' : 'replace')
  }
  const unbind = bind(app, store)

  let ended = false
  const handle: EditorHandle = {
    store,
    end: (discard) => {
      if (ended) return
      ended = true
      const { source } = store.getState()
      if (discard) removeDraft(source.key)
      else store.getState().flushDraft()
      store.getState().dispose()
      unbind()
      session.setState({
        active: false,
        handle: undefined,
        dirty: false,
        key: undefined,
        problems: {},
        stale: {},
        restoredAt: undefined,
        leaving: undefined,
      })
    },
    confirmLeave: () => {
      if (!store.getState().dirty) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => {
        session.setState({
          leaving: (go) => {
            session.setState({ leaving: undefined })
            resolve(go)
          },
        })
      })
    },
    importText: async (text, label) => {
      const checked = await checkImport(api, text, label)
      if ('error' in checked) {
        store.getState().setNotice({ tone: 'error', text: checked.error })
        return
      }
      if (!(await handle.confirmLeave())) return
      handle.end(true)
      await app.open.text(text, label)
      if (!session.getState().active) await app.editing.start()
    },
  }
  session.setState({ active: true, handle, key, dirty: store.getState().dirty, restoredAt, error: undefined })
}

/**
 * Done: leaves edit mode (asking first about unsaved changes, which are then discarded) and
 * shows the workflow as it is stored, planned afresh. A never-saved workflow just closes.
 */
export async function leaveAndReopen(app: App): Promise<void> {
  const { handle } = app.stores.editSession.getState()
  if (!handle) return
  if (!(await handle.confirmLeave())) return
  const { source } = handle.store.getState()
  handle.end(true)
  if (!isNewKey(source.key)) await app.open.byId(source.key, 'replace')
  else {
    app.stores.workflow.getState().close()
    setUrl(undefined, 'replace')
  }
}
