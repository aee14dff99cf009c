//! A finished run's final output in full, fetched when it was too large to arrive with its event.
import { useApp } from '../app/AppContext'
import { useFetched } from './useFetched'

export interface RunOutputState {
  output?: unknown
  error?: string
  loading: boolean
}

/** Fetches the output of `runId` once `wanted` is true (a finished run whose output was not sent inline). */
export function useRunOutput(runId: string | undefined, wanted: boolean): RunOutputState {
  const { api } = useApp()
  const { value, error, loading } = useFetched(wanted ? runId : undefined, (id) => api.runOutput(id))
  return { output: value?.output, error, loading }
}
