//! Edit mode as the rest of the app sees it — the only editor module in the main bundle. It says
//! whether editing is on, what is unsaved, which nodes carry problems or stale outputs, and
//! loads the editor (store, palette, forms, dialogs) on demand: `import('./session/start')`
//! is the editor chunk's entry.
import { create } from 'zustand'
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

export function createEditSession() {
  return create<EditSession>()(() => ({ active: false, starting: false, dirty: false, problems: {}, stale: {} }))
}

export const useEditSession = createEditSession()

export async function startEditing(request: StartRequest = { kind: 'current' }): Promise<void> {
  if (useEditSession.getState().starting) return
  useEditSession.setState({ starting: true, error: undefined })
  try {
    const { start } = await import('./session/start')
    await start(request)
  } catch (e) {
    useEditSession.setState({ error: e instanceof Error ? e.message : String(e) })
  } finally {
    useEditSession.setState({ starting: false })
  }
}

/** Resolves true when it is fine to leave the document (nothing unsaved, or discarded). */
export function confirmLeave(): Promise<boolean> {
  const { handle } = useEditSession.getState()
  return handle ? handle.confirmLeave() : Promise.resolve(true)
}

/** Leaves edit mode (after confirmLeave). */
export function stopEditing(discard = false): void {
  useEditSession.getState().handle?.end(discard)
}

export function isEditing(): boolean {
  return useEditSession.getState().active
}
