//! Folds the server's run messages into the UI's run state. Pure: no React, no I/O.
import type { PausedStep, RunEvent, RunSnapshot, RunState, ServerMessage, StepState, Usage, WaitingFor } from '../api/types'

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
  /** What a run stopped at a `yield` step waits for (`within`: the `workflow` steps around it). */
  waiting?: WaitingFor
  /**
   * The child runs of `workflow` steps, folded from their `child` events by `childKey` (the
   * step's id, with the item for a `forEach` step), each folded as a run of its own. Snapshots do
   * not carry them: a resubscribe to the same run keeps what was folded.
   */
  children: Record<string, RunView>
}

/** What step `id` used and cost: its state's, from its `step_completed` or the snapshot. */
export function stepUsageOf(run: RunView, id: string): Usage | undefined {
  return run.steps[id]?.usage
}

export const initialRunState: RunView = { seq: 0, steps: {}, stepOutputs: {}, children: {} }

/** Where `children` keeps the child run of `workflow` step `stepId` (of item `item` of a `forEach`). */
export function childKey(stepId: string, item?: number): string {
  return item === undefined ? stepId : `${stepId}[${item}]`
}

/**
 * The top-level step and what it waits for, when `event` is a `waiting` at any depth of `child`
 * events: the server's fold does the same (runtime/src/runs/run.rs, `waiting_for`).
 */
export function waitingFor(event: RunEvent): [string, WaitingFor] | undefined {
  const within: string[] = []
  let inner = event
  while (inner.type === 'child') {
    within.push(inner.stepId)
    inner = inner.event
  }
  if (inner.type !== 'waiting') return undefined
  const { stepId, message, expects, deadlineMs } = inner
  return [within[0] ?? stepId, { stepId, within, message, expects, ...(deadlineMs === undefined ? {} : { deadlineMs }) }]
}

/** The most running text a step keeps, in UTF-8 bytes: the server's `StepState::TEXT_LIMIT`. */
export const STEP_TEXT_LIMIT = 16 * 1024

/**
 * `text` with `delta` added, within STEP_TEXT_LIMIT UTF-8 bytes and cut on a character, as the
 * server's `StepState::push_text` does (the two folds must agree on a snapshot's `text`).
 */
export function appendStepText(text: string, delta: string): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4): short text fits.
  if ((text.length + delta.length) * 3 <= STEP_TEXT_LIMIT) return text + delta
  let room = STEP_TEXT_LIMIT - utf8Length(text)
  if (room <= 0) return text
  let end = 0
  for (const char of delta) {
    const bytes = utf8Length(char)
    if (bytes > room) break
    room -= bytes
    end += char.length
  }
  return end === delta.length ? text + delta : text + delta.slice(0, end)
}

function utf8Length(text: string): number {
  let bytes = 0
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  return bytes
}

/** A step's state without its running text: a step that ends (or starts over) has none. */
function withoutText(step: StepState | undefined): StepState | undefined {
  if (step?.text === undefined) return step
  const { text: _text, ...rest } = step
  return rest
}

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
    waiting: run.waiting,
    children: same ? previous.children : {},
  }
}

/**
 * Sets one step's state. The waiting step moving on ends the wait, and it or any step starting
 * means a run that was waiting goes on (it was answered, here or elsewhere).
 */
function setStep(state: RunView, id: string, next: StepState): RunView {
  const steps = { ...state.steps, [id]: next }
  const answered = next.status !== 'waiting' && state.waiting !== undefined && waitingStep(state.waiting) === id
  const goesOn = state.status === 'waiting' && (answered || next.status === 'running')
  return { ...state, steps, ...(answered ? { waiting: undefined } : {}), ...(goesOn ? { status: 'running' as const } : {}) }
}

/** The top-level step a run waits at: the `yield` step, or the `workflow` step around it. */
export function waitingStep(waiting: WaitingFor): string {
  return waiting.within[0] ?? waiting.stepId
}

/** Records a compensation's progress on a step the run knows (as the server's fold does). */
function setCompensation(state: RunView, id: string, compensation: StepState['compensation'], error?: string): RunView {
  const step = state.steps[id]
  if (!step) return state
  return { ...state, steps: { ...state.steps, [id]: { ...step, compensation, ...(error === undefined ? {} : { error }) } } }
}

/** Folds a `child` event into the child run of its `workflow` step, as a run of its own. */
function foldChild(state: RunView, event: Extract<RunEvent, { type: 'child' }>): RunView {
  const key = childKey(event.stepId, event.item)
  const child = state.children[key] ?? initialRunState
  return { ...state, children: { ...state.children, [key]: foldEvent(child, event.event, undefined) } }
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
    case 'step_text': {
      const step = state.steps[event.stepId]
      return setStep(state, event.stepId, { ...step, status: 'running', text: appendStepText(step?.text ?? '', event.delta) })
    }
    case 'step_retrying':
      return setStep(state, event.stepId, {
        ...withoutText(state.steps[event.stepId]),
        status: 'retrying',
        attempt: event.attempt,
        error: event.error,
      })
    case 'item_ended':
      // One item of a `forEach` answered (for traces); the step's own events move the canvas.
      return state
    case 'step_completed': {
      const next = setStep(state, event.stepId, {
        status: 'completed',
        durationMs: event.durationMs,
        summary: event.summary,
        backend: event.backend,
        attempt: state.steps[event.stepId]?.attempt,
        outputBytes,
        usage: event.usage,
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
      const next = setStep(state, event.stepId, { ...withoutText(state.steps[event.stepId]), status: 'cancelled' })
      return state.paused?.stepId === event.stepId ? { ...next, paused: undefined } : next
    }
    case 'waiting':
    case 'child': {
      const found = waitingFor(event)
      const next = found ? { ...setStep(state, found[0], { ...state.steps[found[0]], status: 'waiting' }), waiting: found[1] } : state
      return event.type === 'child' ? foldChild(next, event) : next
    }
    case 'compensating':
      return setCompensation(state, event.stepId, 'compensating')
    case 'compensated':
      return setCompensation(state, event.stepId, event.ok ? 'compensated' : 'compensation_failed', event.error)
    case 'paused':
      return { ...state, paused: { stepId: event.stepId, breakpoint: event.breakpoint, since: Date.now() } }
    case 'resumed':
      return { ...state, paused: undefined, breakpoints: event.breakpoints ?? state.breakpoints }
    case 'run_finished':
      return {
        ...state,
        paused: undefined,
        waiting: event.status === 'waiting' ? state.waiting : undefined,
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
