//! The current run's state, keyed by step id. Components read it through narrow selectors,
//! e.g. `useRunStore(s => s.steps[id]?.status)`, so a status change re-renders only that node.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { ServerMessage } from '../api/types'
import { beginRun, initialRunState, runReducer, type RunView } from './runReducer'

export interface RunStore extends RunView {
  /** A start request is in flight. */
  starting: boolean
  /** Why the last start (or cancel) failed, in the server's words. */
  startError?: string
  setStart(state: { starting?: boolean; startError?: string }): void
  /** Follow a freshly started run (clears the previous one); `fromRun`: the run it replays from. */
  begin(runId: string, workflowId?: string, fromRun?: string): void
  /** Fold a server message (snapshot or event). */
  apply(message: ServerMessage): void
  /** The server does not know the followed run any more: stop showing it as running. */
  lose(reason: string): void
  /** Forget the current run (e.g. when another workflow opens). */
  reset(): void
}

function stateOf(store: RunStore): RunView {
  const { begin: _b, apply: _a, reset: _r, lose: _l, setStart: _s, starting: _st, startError: _e, ...state } = store
  return state
}

export function createRunStore(): StoreApi<RunStore> {
  return createStore<RunStore>()((set, get, store) => ({
    ...initialRunState,
    starting: false,
    setStart: (state) => set(state),
    // Replacing rather than merging drops the previous run's optional keys (error, output, …).
    begin: (runId, workflowId, fromRun) => set({ ...store.getInitialState(), ...beginRun(runId, workflowId, fromRun) }, true),
    apply: (message) => {
      const before = stateOf(get())
      const after = runReducer(before, message)
      if (after !== before) set(after)
    },
    lose: (reason) => {
      if (get().status === 'running') set({ status: 'failed', error: reason })
    },
    reset: () => set(store.getInitialState(), true),
  }))
}

/** A narrow selector over the app's run: the component re-renders only when its answer changes. */
export function useRunStore<T>(selector: (s: RunStore) => T): T {
  return useStore(useApp().stores.run, selector)
}
