//! Opening a workflow: fetch or read its text, plan it on the server (which reports syntax
//! errors with line and column), put the result in the workflow store, remember it, and
//! reflect it in the URL.
import type { App } from '../app/createApp'
import { errorInfo } from '../api/client'
import type { Diagnostic, JsonValue, PlanResponse } from '../api/types'
import { hasDraft, loadDraft, NEW_PREFIX } from '../editor/drafts'
import { isPastKey, PAST_PREFIX, pastKey } from '../history/historyStore'
import { RECENT_PREFIX, textKey } from './recents'

export type HistoryMode = 'push' | 'replace' | 'none'

/** `?workflow=<key>` (none: nothing open); a past run's address is `?run=<id>` (setRunUrl). */
export function setUrl(key: string | undefined, mode: HistoryMode): void {
  if (isPastKey(key)) return setRunUrl(key?.slice(PAST_PREFIX.length), mode)
  writeUrl(mode, (params) => {
    params.delete('run')
    if (key) params.set('workflow', key)
    else params.delete('workflow')
  })
}

/** `?run=<id>`: a past run drawn as it ran. */
export function setRunUrl(runId: string | undefined, mode: HistoryMode): void {
  writeUrl(mode, (params) => {
    params.delete('workflow')
    if (runId) params.set('run', runId)
    else params.delete('run')
  })
}

function writeUrl(mode: HistoryMode, change: (params: URLSearchParams) => void): void {
  if (mode === 'none') return
  const url = new URL(window.location.href)
  change(url.searchParams)
  if (url.href === window.location.href) return
  if (mode === 'push') window.history.pushState(null, '', url)
  else window.history.replaceState(null, '', url)
}

/**
 * Leaving the document being edited: with unsaved changes the person is asked first. Resolves
 * false when they chose to keep editing.
 */
export async function leaveEditing(app: App): Promise<boolean> {
  if (!app.editing.isActive()) return true
  if (!(await app.editing.confirmLeave())) return false
  app.editing.stop(true)
  return true
}

function parse(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return undefined
  }
}

type Opened = { id?: string; key: string; label: string; text: string; version?: string; readOnly?: boolean }

export interface OpenActions {
  /** Opens a library workflow (`builtin:…`, `example:…`, `file:…`) or a remembered `recent:…` one. */
  byId(key: string, history?: HistoryMode): Promise<void>
  /** Opens pasted, dropped or picked text; `label` (e.g. the file name) names it until it is planned. */
  text(text: string, label: string, history?: HistoryMode): Promise<void>
  /** Follows the URL (initial load, back/forward); while editing with unsaved changes, asks first. */
  fromLocation(): void
}

export function createOpenActions(app: App): OpenActions {
  const { stores, api, socket } = app
  const workflow = () => stores.workflow.getState()
  /** Bumped on every open so a slow earlier answer cannot overwrite a later workflow. */
  let generation = 0

  function startOpening(): number {
    generation += 1
    workflow().setLoading(true)
    return generation
  }

  function finish(mine: number, current: Opened, plan: PlanResponse, history: HistoryMode): void {
    if (mine !== generation) return
    const before = workflow().current
    // Reopening the same unchanged workflow keeps its run on screen.
    if (before?.key !== current.key || before.text !== current.text) {
      socket.unfollow()
      stores.run.getState().reset()
    }
    const diagnostics: Diagnostic[] = plan.diagnostics ?? []
    workflow().setOpened({ current: { ...current, definition: parse(current.text) }, graph: plan.graph, diagnostics })
    setUrl(current.key, history)
    const steps = plan.graph?.nodes.flatMap((n) => (n.kind === 'step' ? [n.id] : [])) ?? []
    stores.breakpoints.getState().forWorkflow(current.key, steps)
  }

  function fail(mine: number, error: unknown): void {
    if (mine !== generation) return
    workflow().setLoadError(errorInfo(error).message)
  }

  /** Reopens an unsaved draft kept in this browser after the editor restored it. */
  function resumeDraft(key: string): void {
    if (hasDraft(key)) void app.editing.start({ kind: 'current' })
  }

  /**
   * After a reload (or in a second tab, or a restart of the server), picks up a run of this
   * workflow that is still going, waits for an answer, or was interrupted.
   */
  async function followRunningRun(mine: number): Promise<void> {
    try {
      const { runs } = await api.listRuns()
      if (mine !== generation) return
      const goesOn = (r: (typeof runs)[number]) => r.status === 'running' || r.status === 'waiting' || r.status === 'interrupted'
      const running = runs.find((r) => goesOn(r) && r.workflowId === workflow().current?.id)
      if (running) app.runs.adopt(running)
    } catch {
      // Only a convenience: the run bar still works.
    }
  }

  const open: OpenActions = {
    byId: async (key, history = 'push') => {
      if (isPastKey(key)) return app.history.open(key.slice(PAST_PREFIX.length), history)
      if (!(await leaveEditing(app))) return
      if (key.startsWith(NEW_PREFIX)) {
        const draft = loadDraft(key)
        generation += 1
        if (!draft) {
          workflow().close()
          workflow().setLoadError('That unsaved workflow is no longer in this browser.')
          return
        }
        await app.editing.start({ kind: 'draft', draft })
        setUrl(key, history)
        return
      }
      if (key.startsWith(RECENT_PREFIX)) {
        const entry = stores.recents.getState().recents.find((e) => e.key === key)
        if (entry?.text === undefined) {
          workflow().close()
          workflow().setLoadError('That pasted workflow is no longer in this browser’s recent list.')
          return
        }
        return open.text(entry.text, entry.name, history)
      }
      const mine = startOpening()
      try {
        const doc = await api.getWorkflow(key)
        const plan = await api.plan({ text: doc.text })
        finish(mine, { id: key, key, label: doc.summary.name, text: doc.text, version: doc.version, readOnly: doc.summary.readOnly }, plan, history)
        if (mine !== generation) return
        stores.recents.getState().remember({ key, name: doc.summary.name })
        resumeDraft(key)
        void followRunningRun(mine)
      } catch (e) {
        fail(mine, e)
      }
    },

    text: async (text, label, history = 'push') => {
      // While editing, an opened file or pasted text replaces the document and editing goes on.
      const { handle } = stores.editSession.getState()
      if (handle) return handle.importText(text, label)
      const mine = startOpening()
      const key = textKey(text)
      try {
        const plan = await api.plan({ text })
        const declared = (parse(text) as { name?: unknown } | undefined)?.name
        const name = plan.graph?.name ?? (typeof declared === 'string' ? declared : label)
        finish(mine, { key, label: name, text }, plan, history)
        if (mine !== generation) return
        stores.recents.getState().remember({ key, name, text })
        resumeDraft(key)
      } catch (e) {
        fail(mine, e)
      }
    },

    fromLocation: () => {
      const params = new URL(window.location.href).searchParams
      const run = params.get('run')
      const key = run ? pastKey(run) : params.get('workflow')
      const editing = stores.editSession.getState()
      if (editing.active && editing.key === key) return
      if (editing.active) {
        void leaveEditing(app).then((go) => {
          if (!go) return setUrl(editing.key, 'push')
          // Saving on the way out (Save as) rewrote the address to the new file: go where asked.
          setUrl(key ?? undefined, 'replace')
          open.fromLocation()
        })
        return
      }
      if (key === workflow().current?.key && isPastKey(key)) return
      if (key) void open.byId(key, 'none')
      else {
        generation += 1
        socket.unfollow()
        stores.run.getState().reset()
        workflow().close()
        stores.breakpoints.getState().forWorkflow(undefined, [])
      }
    },
  }
  return open
}
