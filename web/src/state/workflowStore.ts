//! The open workflow: its text, parsed definition, planned graph, diagnostics and the selected node.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { Diagnostic, GraphView, JsonValue, WorkflowSummary } from '../api/types'

export interface OpenWorkflow {
  /** Library id (`builtin:…`, `example:…`, `file:…`); absent for pasted or dropped text. */
  id?: string
  /** What `?workflow=` holds: the id, or `recent:<hash>` for pasted/dropped text. */
  key: string
  /** The workflow's name (library name, declared name, or the dropped file's name). */
  label: string
  text: string
  definition?: JsonValue
  /** The file's version when fetched (library workflows), for the save conflict check. */
  version?: string
  /** Built-ins and examples: saved under a new name. */
  readOnly?: boolean
}

export interface WorkflowStore {
  current?: OpenWorkflow
  graph?: GraphView
  diagnostics: Diagnostic[]
  /** Selected node id, including "__inputs" and "__output". */
  selected?: string
  /** True while a workflow is being fetched or planned. */
  loading: boolean
  /** Why the last open failed (network or server error), shown instead of the canvas. */
  loadError?: string
  library: WorkflowSummary[]
  libraryLoading: boolean
  libraryError?: string
  select(id?: string): void
  setOpened(opened: { current: OpenWorkflow; graph?: GraphView; diagnostics: Diagnostic[] }): void
  setLoading(loading: boolean): void
  setLoadError(message?: string): void
  setLibrary(library: WorkflowSummary[]): void
  setLibraryState(state: { libraryLoading?: boolean; libraryError?: string }): void
  /** Replace the diagnostics (e.g. when starting a run reports INVALID_WORKFLOW). */
  setDiagnostics(diagnostics: Diagnostic[]): void
  close(): void
}

export function createWorkflowStore(): StoreApi<WorkflowStore> {
  return createStore<WorkflowStore>()((set) => ({
    diagnostics: [],
    loading: false,
    library: [],
    libraryLoading: false,
    select: (id) => set({ selected: id }),
    setOpened: ({ current, graph, diagnostics }) => set({ current, graph, diagnostics, selected: undefined, loading: false, loadError: undefined }),
    setLoading: (loading) => set({ loading }),
    setLoadError: (message) => set({ loadError: message, loading: false }),
    setLibrary: (library) => set({ library }),
    setLibraryState: (state) => set(state),
    setDiagnostics: (diagnostics) => set({ diagnostics }),
    close: () => set({ current: undefined, graph: undefined, diagnostics: [], selected: undefined, loadError: undefined }),
  }))
}

/** A narrow selector over the app's open workflow: the component re-renders only when its answer changes. */
export function useWorkflowStore<T>(selector: (s: WorkflowStore) => T): T {
  return useStore(useApp().stores.workflow, selector)
}

/** Whether the definition parsed (so it can be sent to /api/runs). */
export function hasDefinition(w?: OpenWorkflow): boolean {
  return w?.definition !== undefined
}

/** The name of step `id` in `graph`; undefined when `id` is not one of its steps. */
export function stepName(graph: GraphView | undefined, id: string | undefined): string | undefined {
  const node = id === undefined ? undefined : graph?.nodes.find((n) => n.id === id)
  return node?.kind === 'step' ? node.name : undefined
}

/** The steps `id` reads from or waits for in `graph` (workflow inputs are not steps). */
export function upstreamSteps(graph: GraphView | undefined, id: string): string[] {
  const sources = (graph?.edges ?? []).filter((e) => e.target === id && e.source !== id && e.source !== '__inputs').map((e) => e.source)
  return [...new Set(sources)]
}
