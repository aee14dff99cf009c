//! Steps a "Run this step" run did not run: the server replays their outputs from the earlier
//! run (`backend: "replay"`, completing at once), so their "0 ms" would say they ran when they
//! did not.
import type { StepState } from '../api/types'

export const REPLAY_BACKEND = 'replay'

/** "reused from run <id>" for a replayed step, else undefined. */
export function reusedFrom(step: StepState | undefined, fromRun: string | undefined): string | undefined {
  if (step?.backend !== REPLAY_BACKEND) return undefined
  return fromRun ? `reused from run ${fromRun}` : 'reused from an earlier run'
}
