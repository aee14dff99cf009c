//! How each run state reads and which colour it takes: the run bar, the presenter banner and
//! the inspector say it the same way.
import type { RunState } from '../api/types'

export const RUN_STATE_LABEL: Record<RunState, string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  waiting: 'Waiting for input',
  interrupted: 'Interrupted',
}

export const RUN_STATE_COLOR: Record<RunState, string> = {
  running: 'info.main',
  completed: 'success.main',
  failed: 'error.main',
  cancelled: 'warning.main',
  waiting: 'warning.main',
  interrupted: 'warning.main',
}

/** Ended for good: nothing more happens to the run (a waiting or interrupted run may go on). */
export function isFinal(status: RunState | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled'
}
