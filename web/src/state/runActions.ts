//! Starting, cancelling, answering and re-running: the REST calls plus following the run on the
//! socket.
import type { AppCore } from '../app/createApp'
import { ApiError, errorInfo } from '../api/client'
import type { JsonValue, RunInput, RunSummary, StepThrough } from '../api/types'
import { isPastKey } from '../history/historyStore'

export interface StartOptions {
  /** Run only this step, replaying the current run's outputs for what it depends on. */
  step?: string
  /** Pause before steps (stepActions.ts builds it from the breakpoints and the pace). */
  stepThrough?: StepThrough
}

/** How long a running run may stay silent on the socket before its state is fetched over REST. */
export const SILENCE_MS = 3000

export interface RunActions {
  /** Starts the open workflow. */
  start(inputs: Record<string, JsonValue>, options?: StartOptions): Promise<void>
  cancel(): Promise<void>
  /**
   * Answers the `yield` step run `runId` waits at; rejects with the server's ApiError
   * (INVALID_ANSWER, NOT_WAITING) for the form to show.
   */
  answer(runId: string, body: RunInput): Promise<void>
  /** Takes up an interrupted run (its process died) where its journal left it. */
  continueRun(runId: string): Promise<void>
  /**
   * Follows a run started elsewhere (another tab, or before a reload, or a run an earlier
   * server left waiting or interrupted) when it belongs to the open workflow and nothing else
   * is being followed.
   */
  adopt(run: RunSummary): void
  /**
   * Safety net for a socket that is down or missed events: fetch the run's snapshot and fold it
   * in when it is newer than what the socket delivered.
   */
  pollIfSilent(now?: number): Promise<void>
}

export function createRunActions({ stores, api, socket }: AppCore): RunActions {
  const runs = () => stores.run.getState()
  const workflow = () => stores.workflow.getState()
  return {
    start: async (inputs, { step, stepThrough } = {}) => {
      const { current } = workflow()
      if (current?.definition === undefined) return
      const fromRun = step ? runs().runId : undefined
      runs().setStart({ starting: true, startError: undefined })
      try {
        const { runId } = await api.startRun({ definition: current.definition, inputs, workflowId: current.id, step, fromRun, stepThrough })
        // The workflow may have changed while the request was in flight.
        if (workflow().current !== current) {
          runs().setStart({ starting: false })
          return
        }
        if (runs().runId !== runId) runs().begin(runId, current.id, fromRun)
        else runs().setStart({ starting: false })
        socket.follow(runId)
      } catch (e) {
        runs().setStart({ starting: false, startError: errorInfo(e).message })
        if (e instanceof ApiError && e.diagnostics.length > 0) workflow().setDiagnostics(e.diagnostics)
      }
    },

    cancel: async () => {
      const { runId } = runs()
      if (!runId) return
      try {
        await api.cancelRun(runId)
      } catch (e) {
        runs().setStart({ startError: `Could not cancel: ${errorInfo(e).message}` })
      }
    },

    answer: async (runId, body) => {
      await api.submitRunInput(runId, body)
      // The socket forwards nothing more of a run that was waiting when it subscribed (the
      // server counts a snapshot that is not `running` as final): subscribing again once the
      // answer is taken brings a fresh snapshot and the events from there on.
      if (runs().runId === runId) socket.follow(runId)
    },

    continueRun: async (runId) => {
      try {
        await api.continueRun(runId)
        if (runs().runId === runId) socket.follow(runId)
      } catch (e) {
        runs().setStart({ startError: `Could not continue: ${errorInfo(e).message}` })
      }
    },

    adopt: (run) => {
      const { current } = workflow()
      const followed = runs()
      const goesOn = run.status === 'running' || run.status === 'waiting' || run.status === 'interrupted'
      // A past run on the canvas stays there: the Runs panel lists the new run.
      if (!goesOn || !current?.id || run.workflowId !== current.id || isPastKey(current.key)) return
      if (followed.starting || followed.status === 'running' || followed.runId === run.runId) return
      followed.begin(run.runId, run.workflowId)
      socket.follow(run.runId)
    },

    pollIfSilent: async (now = Date.now()) => {
      const { runId, status } = runs()
      if (!runId || status !== 'running' || now - socket.lastHeardAt < SILENCE_MS) return
      try {
        const run = await api.getRun(runId)
        const state = runs()
        if (state.runId === runId && (run.seq > state.seq || run.status !== state.status)) runs().apply({ type: 'snapshot', run })
      } catch {
        // The socket's reconnect and the next tick will try again.
      }
    },
  }
}
