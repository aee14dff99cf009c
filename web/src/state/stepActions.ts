//! Step-through runs (docs/api.md, "Step-through runs"): starting a run with the canvas's
//! breakpoints and the chosen pace, and Next / Continue while it waits before a step.
import type { App } from '../app/createApp'
import { ApiError, errorInfo } from '../api/client'
import type { JsonValue, ResumeAction, StepThrough } from '../api/types'
import { readStored } from '../hooks/useStoredState'

/** Where the pace is remembered (useStoredState), in milliseconds. */
export const PACE_KEY = 'vai.stepPaceMs'
/** The paces offered: each step shown running for at least this long (0: off). */
export const PACES = [0, 500, 1000, 2000, 5000] as const

export function storedPace(): number {
  const pace = readStored<unknown>(PACE_KEY, 0)
  return PACES.find((p) => p === pace) ?? 0
}

const FAILED = { next: 'Could not run the next step', continue: 'Could not continue' } as const

export interface StepActions {
  /**
   * What a run is started with: pausing before each step when `pauseEach` (the Step button),
   * before the breakpoints either way, at the stored pace. A plain Run with neither breakpoints
   * nor a pace sends nothing, as before step-through runs existed.
   */
  stepThroughFor(pauseEach: boolean): StepThrough | undefined
  /** Runs the open workflow; with `pauseEach`, one step at a time. */
  start(inputs: Record<string, JsonValue>, pauseEach: boolean): Promise<void>
  /**
   * Next (run the paused step, pause before the next one) or Continue (run to the next
   * breakpoint). The canvas's breakpoints go along, so ones changed during the pause count from
   * now on. The socket's `resumed` event, not the reply, moves the UI on — in every tab.
   */
  resume(action: ResumeAction): Promise<void>
}

export function createStepActions(app: App): StepActions {
  const { stores, api } = app
  /** Set while a resume is in flight, so a second key press cannot skip a pause it did not see. */
  let resuming = false

  const stepThroughFor = (pauseEach: boolean): StepThrough | undefined => {
    const breakpoints = stores.breakpoints.getState().ids
    const paceMs = storedPace()
    if (!pauseEach && breakpoints.length === 0 && paceMs === 0) return undefined
    return { pauseEach, breakpoints, paceMs }
  }

  return {
    stepThroughFor,
    start: (inputs, pauseEach) => app.runs.start(inputs, { stepThrough: stepThroughFor(pauseEach) }),
    resume: async (action) => {
      const { runId, paused } = stores.run.getState()
      if (!runId || !paused || resuming) return
      resuming = true
      try {
        await api.resumeRun(runId, { action, breakpoints: stores.breakpoints.getState().ids })
      } catch (e) {
        // Another tab resumed this pause first; its `resumed` event is on its way.
        if (e instanceof ApiError && e.code === 'NOT_PAUSED') return
        stores.run.getState().setStart({ startError: `${FAILED[action]}: ${errorInfo(e).message}` })
      } finally {
        resuming = false
      }
    },
  }
}
