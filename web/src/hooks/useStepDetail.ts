//! A finished step's resolved inputs and full output, fetched from the step route; and the
//! inputs a paused step will get, fetched when the pause arrives.
import type { StepDetail, StepStatus } from '../api/types'
import { useApp } from '../app/AppContext'
import { useFetched } from './useFetched'

const FINISHED: ReadonlySet<StepStatus | undefined> = new Set(['completed', 'failed', 'skipped', 'cancelled'])

export interface StepDetailState {
  detail?: StepDetail
  error?: string
  loading: boolean
}

export function useStepDetail(runId: string | undefined, stepId: string, status: StepStatus | undefined, paused = false): StepDetailState {
  // The status is part of the key: a step that finishes again (a new attempt) is fetched again.
  const phase = paused ? 'paused' : FINISHED.has(status) ? status : undefined
  const key = runId && phase ? `${runId}\u0000${stepId}\u0000${phase}` : undefined
  const { api } = useApp()
  const { value, error, loading } = useFetched(key, () => api.stepOutput(runId ?? '', stepId))
  return { detail: value, error, loading }
}
