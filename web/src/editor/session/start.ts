//! The editor chunk's entry: starts an editing session (store, bindings, handle) for what
//! `startEditing` asked for.
import { runSocket } from '../../api/socket'
import { useCanvasStore } from '../../canvas/useCanvasStore'
import { checkImport } from '../../state/checkImport'
import { useCatalogStore } from '../../state/catalogStore'
import { openWorkflowById, openWorkflowText, setUrl } from '../../state/openWorkflow'
import { useRunStore } from '../../state/runStore'
import { useWorkflowStore } from '../../state/workflowStore'
import { removeDraft } from '../drafts'
import { startEditing, useEditSession, type EditorHandle, type StartRequest } from '../editSession'
import { createEditorStore } from '../store/createEditorStore'
import type { EditorInit } from '../store/state'
import { httpEditorApi } from '../store/editorApi'
import { bind } from './bind'
import { isNewKey, opening } from './open'

/**
 * A document opened without the server's plan of it (a kept draft, a starter) is planned first,
 * so the canvas lays it out along its edges from the start instead of in one column.
 */
async function withGraph(init: EditorInit): Promise<EditorInit> {
  if (init.graph || init.doc.steps.length === 0) return init
  try {
    const plan = await httpEditorApi.plan(init.doc)
    return plan.graph ? { ...init, graph: plan.graph, diagnostics: plan.diagnostics } : init
  } catch {
    // The server is gone: the editor opens anyway and says so on its first analysis.
    return init
  }
}

export async function start(request: StartRequest): Promise<void> {
  const opened = opening(request)
  if ('error' in opened) {
    useEditSession.setState({ error: opened.error })
    return
  }
  useEditSession.getState().handle?.end(false)
  await useCatalogStore.getState().load()
  const { restoredAt } = opened
  const init = await withGraph(opened.init)
  // Laid out for the canvas the read-only view laid it out for, so that nothing moves.
  const store = createEditorStore({ ...init, view: useCanvasStore.getState().laidFor }, { api: httpEditorApi, tools: () => useCatalogStore.getState().tools })
  const key = init.source.key
  if (isNewKey(key) || useWorkflowStore.getState().current?.key !== key) {
    // A new workflow or a restored one of its kind: nothing was fetched, the editor is the source.
    runSocket.unfollow()
    useRunStore.getState().reset()
    useWorkflowStore.getState().setOpened({ current: { key, label: init.source.label, text: '', definition: init.doc }, graph: undefined, diagnostics: [] })
    setUrl(key, request.kind === 'new' ? 'push' : 'replace')
  }
  const unbind = bind(store)

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
      useEditSession.setState({
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
        useEditSession.setState({
          leaving: (go) => {
            useEditSession.setState({ leaving: undefined })
            resolve(go)
          },
        })
      })
    },
    importText: async (text, label) => {
      const checked = await checkImport(httpEditorApi, text, label)
      if ('error' in checked) {
        store.getState().setNotice({ tone: 'error', text: checked.error })
        return
      }
      if (!(await handle.confirmLeave())) return
      handle.end(true)
      await openWorkflowText(text, label)
      if (!useEditSession.getState().active) await startEditing()
    },
  }
  useEditSession.setState({ active: true, handle, key, dirty: store.getState().dirty, restoredAt, error: undefined })
}

/**
 * Done: leaves edit mode (asking first about unsaved changes, which are then discarded) and
 * shows the workflow as it is stored, planned afresh. A never-saved workflow just closes.
 */
export async function leaveAndReopen(): Promise<void> {
  const { handle } = useEditSession.getState()
  if (!handle) return
  if (!(await handle.confirmLeave())) return
  const { source } = handle.store.getState()
  handle.end(true)
  if (!isNewKey(source.key)) await openWorkflowById(source.key, 'replace')
  else {
    useWorkflowStore.getState().close()
    setUrl(undefined, 'replace')
  }
}
