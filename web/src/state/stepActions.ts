//! Step-through runs (docs/api.md, "Step-through runs"): starting a run with the canvas's
//! breakpoints and the chosen pace, and Next / Continue while it waits before a step.
import { api, ApiError, errorInfo } from '../api/client'
import type { JsonValue, ResumeAction, StepThrough } from '../api/types'
import { readStored } from '../hooks/useStoredState'
import { useBreakpointStore } from './breakpointStore'
import { startRun } from './runActions'
import { useRunStore } from './runStore'

/** Where the pace is remembered (useStoredState), in milliseconds. */
export const PACE_KEY = 'vai.stepPaceMs'
/** The paces offered: each step shown running for at least this long (0: off). */
export const PACES = [0, 500, 1000, 2000, 5000] as const

export function storedPace(): number {
  const pace = readStored<unknown>(PACE_KEY, 0)
  return PACES.find((p) => p === pace) ?? 0
}

/**
 * What a run is started with: pausing before each step when `pauseEach` (the Step button),
 * before the breakpoints either way, at the stored pace. A plain Run with neither breakpoints
 * nor a pace sends nothing, as before step-through runs existed.
 */
export function stepThroughFor(pauseEach: boolean): StepThrough | undefined {
  const breakpoints = useBreakpointStore.getState().ids
  const paceMs = storedPace()
  if (!pauseEach && breakpoints.length === 0 && paceMs === 0) return undefined
  return { pauseEach, breakpoints, paceMs }
}

/** Runs the open workflow; with `pauseEach`, one step at a time. */
export function startStepping(inputs: Record<string, JsonValue>, pauseEach: boolean): Promise<void> {
  return startRun(inputs, { stepThrough: stepThroughFor(pauseEach) })
}

const FAILED = { next: 'Could not run the next step', continue: 'Could not continue' } as const

/** Set while a resume is in flight, so a second key press cannot skip a pause it did not see. */
let resuming = false

/**
 * Next (run the paused step, pause before the next one) or Continue (run to the next
 * breakpoint). The canvas's breakpoints go along, so ones changed during the pause count from
 * now on. The socket's `resumed` event, not the reply, moves the UI on — in every tab.
 */
export async function resumeRun(action: ResumeAction): Promise<void> {
  const { runId, paused } = useRunStore.getState()
  if (!runId || !paused || resuming) return
  resuming = true
  try {
    await api.resumeRun(runId, { action, breakpoints: useBreakpointStore.getState().ids })
  } catch (e) {
    // Another tab resumed this pause first; its `resumed` event is on its way.
    if (e instanceof ApiError && e.code === 'NOT_PAUSED') return
    useRunStore.getState().setStart({ startError: `${FAILED[action]}: ${errorInfo(e).message}` })
  } finally {
    resuming = false
  }
}
