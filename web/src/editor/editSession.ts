//! Edit mode as the rest of the app sees it — the only editor module in the main bundle. It says
//! whether editing is on, what is unsaved, which nodes carry problems or stale outputs, and
//! loads the editor (store, palette, forms, dialogs) on demand: `import('./session/start')`
//! is the editor chunk's entry.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { App } from '../app/createApp'
import type { Workflow } from '../api/types'
import type { Draft } from './drafts'
import type { EditorStore } from './store/createEditorStore'

/** What the rest of the app can ask of a running editor. */
export interface EditorHandle {
  store: EditorStore
  /** Ends the session; `discard` forgets its draft. */
  end(discard: boolean): void
  /** With unsaved changes, asks whether to discard them: resolves true to go on. */
  confirmLeave(): Promise<boolean>
  /** In edit mode an opened file or pasted text replaces the document (after checks and the guard). */
  importText(text: string, label: string): Promise<void>
}

export type StartRequest =
  /** Edit the open workflow (its draft, if one was kept). */
  | { kind: 'current' }
  /** A new, empty workflow. */
  | { kind: 'new'; doc?: Workflow }
  /** Reopen a kept draft (after a reload). */
  | { kind: 'draft'; draft: Draft }

export interface EditSession {
  active: boolean
  /** The editor chunk is loading. */
  starting: boolean
  /** The workflow key being edited. */
  key?: string
  dirty: boolean
  /** Validation severity per step id (errors win over warnings). */
  problems: Record<string, 'error' | 'warning'>
  /** Steps whose shown run output predates an edit. */
  stale: Record<string, true>
  /** When the document shown is a restored draft (its time), until dismissed. */
  restoredAt?: number
  /** Why edit mode could not start. */
  error?: string
  handle?: EditorHandle
  /** A pending "discard unsaved changes?" question, answered by the editor's dialog. */
  leaving?: (go: boolean) => void
}

export function createEditSessionStore(): StoreApi<EditSession> {
  return createStore<EditSession>()(() => ({ active: false, starting: false, dirty: false, problems: {}, stale: {} }))
}

/** A narrow selector over the app's edit session: the component re-renders only when its answer changes. */
export function useEditSession<T>(selector: (s: EditSession) => T): T {
  return useStore(useApp().stores.editSession, selector)
}

/** Starting, leaving and asking about edit mode, for the rest of the app. */
export interface Editing {
  /** Loads the editor chunk (once) and starts a session for `request`. */
  start(request?: StartRequest): Promise<void>
  /** Resolves true when it is fine to leave the document (nothing unsaved, or discarded). */
  confirmLeave(): Promise<boolean>
  /** Leaves edit mode (after confirmLeave); `discard` forgets the draft. */
  stop(discard?: boolean): void
  isActive(): boolean
}

export function createEditing(app: App): Editing {
  const session = app.stores.editSession
  return {
    start: async (request = { kind: 'current' }) => {
      if (session.getState().starting) return
      session.setState({ starting: true, error: undefined })
      try {
        const { start } = await import('./session/start')
        await start(app, request)
      } catch (e) {
        session.setState({ error: e instanceof Error ? e.message : String(e) })
      } finally {
        session.setState({ starting: false })
      }
    },
    confirmLeave: () => {
      const { handle } = session.getState()
      return handle ? handle.confirmLeave() : Promise.resolve(true)
    },
    stop: (discard = false) => session.getState().handle?.end(discard),
    isActive: () => session.getState().active,
  }
}
