//! Steps a run did not run: a "Run this step" run replays the earlier run's outputs
//! (`backend: "replay"`), and a run restarted from a past run's step (or resumed after an
//! interruption) completes the steps before it from the journal (`backend: "journal"`), each at
//! once, so their "0 ms" would say they ran when they did not.
import type { StepState } from '../api/types'

export const REPLAY_BACKEND = 'replay'
export const JOURNAL_BACKEND = 'journal'

/** "reused from run <id>" for a replayed step, else undefined. */
export function reusedFrom(step: StepState | undefined, fromRun: string | undefined): string | undefined {
  if (step?.backend !== REPLAY_BACKEND && step?.backend !== JOURNAL_BACKEND) return undefined
  if (fromRun) return `reused from run ${fromRun}`
  return step.backend === JOURNAL_BACKEND ? 'reused from the run’s journal' : 'reused from an earlier run'
}
