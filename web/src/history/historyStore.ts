//! The run history as the playground holds it: the Runs panel's list, the past run drawn on the
//! canvas (opened as a workflow of its own, keyed `run:<id>`, whose definition is the one it
//! ran), the runs picked to compare and their diff, and the run restarted from a past one.
//! Plain state: historyActions.ts changes it.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { HistoryEntry, HistoryRecord, JsonValue, RestartedFrom, RunDiff } from '../api/types'
import type { RunView } from '../state/runReducer'
import type { WorkflowStore } from '../state/workflowStore'

/** The workflow key of a past run on the canvas (`?run=<id>` in the address). */
export const PAST_PREFIX = 'run:'

export function pastKey(runId: string): string {
  return `${PAST_PREFIX}${runId}`
}

export function isPastKey(key: string | undefined): boolean {
  return key?.startsWith(PAST_PREFIX) === true
}

/** Two runs compared: A started first; B is the one drawn on the canvas. */
export interface Comparison {
  a: string
  b: string
  diff?: RunDiff
  error?: string
  loading: boolean
}

/** A run started from a step of a shown run, and what it was started with. */
export interface Restarted {
  runId: string
  from: RestartedFrom
  definition?: JsonValue
  inputs: Record<string, JsonValue>
}

export interface HistoryStore {
  /** The Runs panel's runs, newest first. */
  runs: HistoryEntry[]
  /** What they were listed for: a workflow id (none: every workflow) and a status. */
  listed?: { workflowId?: string; status?: string }
  listing: boolean
  /** When the runs were listed (what "5 min ago" is counted from). */
  listedAt: number
  listError?: string
  /** The past run opened from the panel (drawn while the workflow key is `pastKey` of it). */
  past?: HistoryRecord
  /** Runs picked in the panel to compare, at most two, in the order picked. */
  picked: string[]
  comparison?: Comparison
  restarted?: Restarted
  restarting: boolean
  restartError?: string
}

export function createHistoryStore(): StoreApi<HistoryStore> {
  return createStore<HistoryStore>()(() => ({ runs: [], listing: false, listedAt: 0, picked: [], restarting: false }))
}

/** A narrow selector over the app's run history: the component re-renders only when its answer changes. */
export function useHistoryStore<T>(selector: (s: HistoryStore) => T): T {
  return useStore(useApp().stores.history, selector)
}

/** The past run on the canvas: the one opened, while its key is still the open workflow's. */
export function pastOnCanvas(history: HistoryStore, workflow: Pick<WorkflowStore, 'current'>): HistoryRecord | undefined {
  const { past } = history
  return past && workflow.current?.key === pastKey(past.run.runId) ? past : undefined
}

/** The diff whose run B is the run shown, so the canvas and inspector can mark its steps. */
export function diffOnCanvas(history: HistoryStore, run: Pick<RunView, 'runId'>): RunDiff | undefined {
  const diff = history.comparison?.diff
  return diff && run.runId === diff.b.runId ? diff : undefined
}

/** The workflow whose runs the panel lists: the past run's when one is open, else the open one's. */
export function scopeOf(history: HistoryStore, workflow: Pick<WorkflowStore, 'current'>): string | undefined {
  const past = pastOnCanvas(history, workflow)
  return past ? past.run.workflowId : workflow.current?.id
}
