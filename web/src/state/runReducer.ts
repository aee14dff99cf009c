//! Folds the server's run messages into the UI's run state. Pure: no React, no I/O.
import type { PausedStep, RunEvent, RunSnapshot, RunState, ServerMessage, StepState, Usage } from '../api/types'

export interface RunView {
  runId?: string
  workflowId?: string
  workflow?: string
  /** `running`, then the terminal status from `run_finished`. */
  status?: RunState
  /** Last event folded in; events with seq <= this are ignored. */
  seq: number
  steps: Record<string, StepState>
  layers?: string[][]
  startedAt?: number
  durationMs?: number
  output?: unknown
  outputBytes?: number
  error?: string
  usage?: Usage
  /** Step outputs delivered inline with `step_completed` (<= 16 KB); larger ones are fetched. */
  stepOutputs: Record<string, unknown>
  /** A step-through run waiting before this step (`since`: when the pause began). */
  paused?: PausedStep
  /** A step-through run's breakpoints, as the run has them now (a resume may replace them). */
  breakpoints?: string[]
  /**
   * The run a "Run this step" run replays its dependencies from. The client sent it; the server
   * marks replayed steps (`backend: "replay"`) but does not say from which run.
   */
  fromRun?: string
}

export const initialRunState: RunView = { seq: 0, steps: {}, stepOutputs: {} }

/** Starts following a run before its snapshot arrives. */
export function beginRun(runId: string, workflowId?: string, fromRun?: string): RunView {
  return { ...initialRunState, runId, workflowId, fromRun, status: 'running', startedAt: Date.now() }
}

export function fromSnapshot(run: RunSnapshot, previous?: RunView): RunView {
  const same = previous?.runId === run.runId
  const keep = same ? previous.stepOutputs : {}
  return {
    runId: run.runId,
    workflowId: run.workflowId,
    workflow: run.workflow,
    status: run.status,
    seq: run.seq,
    steps: { ...run.steps },
    layers: run.layers,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    output: run.output,
    outputBytes: run.outputBytes,
    error: run.error,
    usage: run.usage,
    stepOutputs: keep,
    paused: run.paused,
    breakpoints: run.stepThrough?.breakpoints,
    fromRun: same ? previous.fromRun : undefined,
  }
}

function setStep(state: RunView, id: string, next: StepState): RunView {
  return { ...state, steps: { ...state.steps, [id]: next } }
}

function foldEvent(state: RunView, event: RunEvent, output: unknown, outputBytes?: number): RunView {
  switch (event.type) {
    case 'run_started': {
      const steps = { ...state.steps }
      for (const id of event.layers.flat()) steps[id] ??= { status: 'pending' }
      return { ...state, status: 'running', workflow: event.workflow, layers: event.layers, steps }
    }
    case 'step_started':
      return setStep(state, event.stepId, { status: 'running' })
    case 'step_retrying':
      return setStep(state, event.stepId, {
        ...state.steps[event.stepId],
        status: 'retrying',
        attempt: event.attempt,
        error: event.error,
      })
    case 'step_completed': {
      const next = setStep(state, event.stepId, {
        status: 'completed',
        durationMs: event.durationMs,
        summary: event.summary,
        backend: event.backend,
        attempt: state.steps[event.stepId]?.attempt,
        outputBytes,
      })
      if (output === undefined) return next
      return { ...next, stepOutputs: { ...state.stepOutputs, [event.stepId]: output } }
    }
    case 'step_skipped':
      return setStep(state, event.stepId, { status: 'skipped', reason: event.reason })
    case 'step_failed':
      return setStep(state, event.stepId, {
        status: 'failed',
        error: event.error,
        durationMs: event.durationMs,
        attempt: state.steps[event.stepId]?.attempt,
      })
    case 'step_cancelled': {
      const next = setStep(state, event.stepId, { ...state.steps[event.stepId], status: 'cancelled' })
      return state.paused?.stepId === event.stepId ? { ...next, paused: undefined } : next
    }
    case 'paused':
      return { ...state, paused: { stepId: event.stepId, breakpoint: event.breakpoint, since: Date.now() } }
    case 'resumed':
      return { ...state, paused: undefined, breakpoints: event.breakpoints ?? state.breakpoints }
    case 'run_finished':
      return {
        ...state,
        paused: undefined,
        status: event.status,
        durationMs: event.durationMs,
        error: event.error,
        usage: event.usage,
        output: output ?? state.output,
        outputBytes: outputBytes ?? state.outputBytes,
      }
  }
}

/** `(state, message) => state`; messages for another run, or already-seen events, change nothing. */
export function runReducer(state: RunView, message: ServerMessage): RunView {
  switch (message.type) {
    case 'snapshot':
      if (state.runId !== undefined && state.runId !== message.run.runId) return state
      return fromSnapshot(message.run, state)
    case 'event':
      if (message.runId !== state.runId) return state
      if (message.seq <= state.seq) return state
      return { ...foldEvent(state, message.event, message.output, message.outputBytes), seq: message.seq }
    default:
      return state
  }
}

export function isActive(status?: RunState): boolean {
  return status === 'running'
}
