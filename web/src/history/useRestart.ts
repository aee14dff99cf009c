//! Whether the run shown can be restarted from a step, and why not: it must be a past run opened
//! from the history (or one restarted from it, so it is journaled too) that is not running.
import { useEditSession } from '../editor/editSession'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import { pastKey, useHistoryStore } from './historyStore'

export interface Restartable {
  /** A past run (or a restart of one) is on the canvas: restarting is offered. */
  offered: boolean
  /** It can be done now. */
  can: boolean
  /** Why not, or what it does. */
  why: string
}

export function useRestart(): Restartable {
  const shown = useRunStore((s) => s.runId)
  const status = useRunStore((s) => s.status)
  const past = useHistoryStore((s) => s.past?.run.runId)
  const restarted = useHistoryStore((s) => s.restarted?.runId)
  const restarting = useHistoryStore((s) => s.restarting)
  const viewing = useWorkflowStore((s) => past !== undefined && s.current?.key === pastKey(past))
  const runnable = useWorkflowStore((s) => s.graph?.runnable === true)
  const editing = useEditSession((s) => s.active)
  const offered = viewing && shown !== undefined && (shown === past || shown === restarted)
  if (!offered) return { offered, can: false, why: '' }
  if (status === 'running') return { offered, can: false, why: 'The run has not ended yet' }
  if (restarting) return { offered, can: false, why: 'Restarting…' }
  if (!runnable) return { offered, can: false, why: 'Fix the workflow’s errors first' }
  const what = editing ? 'the workflow as edited' : 'the workflow as shown'
  return {
    offered,
    can: true,
    why: `Run this step and everything after it again, with ${what} and the run form’s inputs; the steps before it reuse this run’s outputs`,
  }
}
