//! Keeps the rest of the app in step with the editor: the workflow store sees the edited
//! document (so Run, Run this step and the plan use it as it stands), the edit session sees what
//! is unsaved and which nodes carry problems or stale outputs, the URL and library follow a
//! save, and leaving the page with unsaved changes asks first.
import type { Diagnostic, GraphView } from '../../api/types'
import type { App } from '../../app/createApp'
import { NO_ESTIMATE } from '../../plan/estimate'
import { setUrl } from '../../state/openWorkflow'
import { RECENT_PREFIX } from '../../state/recents'
import type { WorkflowStore } from '../../state/workflowStore'
import type { EditSession } from '../editSession'
import type { EditorState, EditorStore } from '../store/createEditorStore'

const TITLE = 'vai playground'

/** Validation severity per step: errors win over warnings; notes are not marks. */
export function problemsOf(diagnostics: Diagnostic[]): Record<string, 'error' | 'warning'> {
  const out: Record<string, 'error' | 'warning'> = {}
  for (const d of diagnostics) {
    if (!d.stepId || d.severity === 'info') continue
    if (d.severity === 'error' || out[d.stepId] === undefined) out[d.stepId] = d.severity
  }
  return out
}

/** The graph the read-side of the app (run bar, plan, inspector) sees while editing. */
function graphOf(s: EditorState): GraphView {
  const planned = s.analysis.graph
  return {
    name: s.doc.name,
    description: s.doc.description,
    nodes: s.nodes,
    edges: s.edges,
    layers: planned?.layers ?? [],
    estimate: planned?.estimate ?? NO_ESTIMATE,
    runnable: planned?.runnable ?? false,
  }
}

export function bind(app: App, store: EditorStore): () => void {
  const { stores } = app
  const titleBefore = document.title

  function sync(s: EditorState, prev?: EditorState): void {
    // Only what changed is written, so the app's selectors (some return whole objects) stay put
    // on a selection change or a keystroke that changes nothing they show.
    const wf = stores.workflow.getState()
    const update: Partial<WorkflowStore> = {}
    if (
      !prev ||
      s.nodes !== prev.nodes ||
      s.edges !== prev.edges ||
      s.analysis !== prev.analysis ||
      s.doc.name !== prev.doc.name ||
      s.doc.description !== prev.doc.description
    ) {
      update.graph = graphOf(s)
    }
    const source = s.source
    if (wf.current && (!prev || s.doc !== prev.doc || source !== prev.source)) {
      update.current = {
        ...wf.current,
        id: source.id,
        key: source.key,
        label: source.label,
        version: source.version,
        readOnly: source.readOnly,
        definition: s.doc,
      }
    }
    if (!prev || s.analysis !== prev.analysis) update.diagnostics = s.analysis.diagnostics
    if (Object.keys(update).length > 0) stores.workflow.setState(update)
    const selected = s.selection.length === 1 ? s.selection[0] : undefined
    if (wf.selected !== selected) stores.workflow.getState().select(selected)

    const session = stores.editSession.getState()
    const marks: Partial<EditSession> = {}
    if (session.dirty !== s.dirty) marks.dirty = s.dirty
    if (session.key !== source.key) marks.key = source.key
    if (!prev || s.analysis !== prev.analysis) marks.problems = problemsOf(s.analysis.diagnostics)
    if (session.stale !== s.stale) marks.stale = s.stale
    if (Object.keys(marks).length > 0) stores.editSession.setState(marks)
    if (!prev || s.dirty !== prev.dirty || s.doc.name !== prev.doc.name) document.title = `${s.dirty ? '● ' : ''}${s.doc.name || source.label} — ${TITLE}`

    if (prev && prev.source.key !== source.key) {
      // Saved under a (new) file name: the URL, the library and the recent list follow. Pasted
      // text saved as a file is that file from now on, not a second recent workflow of that name.
      setUrl(source.key, 'replace')
      const pasted = prev.source.key.startsWith(RECENT_PREFIX) ? prev.source.key : undefined
      stores.recents.getState().remember({ key: source.key, name: source.label }, pasted)
      void app.library.load()
    }
  }

  sync(store.getState())
  const unsubscribe = store.subscribe((s, prev) => sync(s, prev))
  // Selecting elsewhere (a diagnostic, a template reference, the plan) selects on the canvas.
  const unfollowSelection = stores.workflow.subscribe((w, prev) => {
    if (w.selected === prev.selected || w.selected === undefined) return
    const { selection, select } = store.getState()
    if (selection.length !== 1 || selection[0] !== w.selected) select([w.selected])
  })
  // A new run makes every shown output current again.
  const unfollowRuns = stores.run.subscribe((r, prev) => {
    if (r.runId && r.runId !== prev.runId) store.getState().clearStale()
  })
  const beforeUnload = (e: BeforeUnloadEvent) => {
    store.getState().flushDraft()
    if (!store.getState().dirty) return
    e.preventDefault()
    e.returnValue = ''
  }
  const pageHide = () => store.getState().flushDraft()
  window.addEventListener('beforeunload', beforeUnload)
  window.addEventListener('pagehide', pageHide)

  return () => {
    unsubscribe()
    unfollowSelection()
    unfollowRuns()
    window.removeEventListener('beforeunload', beforeUnload)
    window.removeEventListener('pagehide', pageHide)
    document.title = titleBefore
  }
}
