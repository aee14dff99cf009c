//! Starting, cancelling and re-running: the REST calls plus following the run on the socket.
import { api, ApiError, errorInfo } from '../api/client'
import { runSocket } from '../api/socket'
import type { JsonValue, RunSummary, StepThrough } from '../api/types'
import { useRunStore } from './runStore'
import { useWorkflowStore } from './workflowStore'

export interface StartOptions {
  /** Run only this step, replaying the current run's outputs for what it depends on. */
  step?: string
  /** Pause before steps (stepActions.ts builds it from the breakpoints and the pace). */
  stepThrough?: StepThrough
}

/** Starts the open workflow. */
export async function startRun(inputs: Record<string, JsonValue>, { step, stepThrough }: StartOptions = {}): Promise<void> {
  const { current } = useWorkflowStore.getState()
  const runs = useRunStore.getState()
  if (current?.definition === undefined) return
  const fromRun = step ? runs.runId : undefined
  runs.setStart({ starting: true, startError: undefined })
  try {
    const { runId } = await api.startRun({ definition: current.definition, inputs, workflowId: current.id, step, fromRun, stepThrough })
    // The workflow may have changed while the request was in flight.
    if (useWorkflowStore.getState().current !== current) {
      useRunStore.getState().setStart({ starting: false })
      return
    }
    if (useRunStore.getState().runId !== runId) useRunStore.getState().begin(runId, current.id, fromRun)
    else useRunStore.getState().setStart({ starting: false })
    runSocket.follow(runId)
  } catch (e) {
    useRunStore.getState().setStart({ starting: false, startError: errorInfo(e).message })
    if (e instanceof ApiError && e.diagnostics.length > 0) useWorkflowStore.getState().setDiagnostics(e.diagnostics)
  }
}

export async function cancelRun(): Promise<void> {
  const { runId } = useRunStore.getState()
  if (!runId) return
  try {
    await api.cancelRun(runId)
  } catch (e) {
    useRunStore.getState().setStart({ startError: `Could not cancel: ${errorInfo(e).message}` })
  }
}

/**
 * Follows a run started elsewhere (another tab, or before a reload) when it belongs to the open
 * workflow and nothing else is being followed.
 */
export function adoptRun(run: RunSummary): void {
  const { current } = useWorkflowStore.getState()
  const runs = useRunStore.getState()
  if (run.status !== 'running' || !current?.id || run.workflowId !== current.id) return
  if (runs.starting || runs.status === 'running' || runs.runId === run.runId) return
  runs.begin(run.runId, run.workflowId)
  runSocket.follow(run.runId)
}

/** How long a running run may stay silent on the socket before its state is fetched over REST. */
export const SILENCE_MS = 3000

/**
 * Safety net for a socket that is down or missed events: fetch the run's snapshot and fold it
 * in when it is newer than what the socket delivered.
 */
export async function pollRunIfSilent(now = Date.now()): Promise<void> {
  const { runId, status } = useRunStore.getState()
  if (!runId || status !== 'running' || now - runSocket.lastHeardAt < SILENCE_MS) return
  try {
    const run = await api.getRun(runId)
    const state = useRunStore.getState()
    if (state.runId === runId && (run.seq > state.seq || run.status !== state.status)) {
      useRunStore.getState().apply({ type: 'snapshot', run })
    }
  } catch {
    // The socket's reconnect and the next tick will try again.
  }
}
