//! A finished run's final output in full, fetched when it was too large to arrive with its event.
import { useEffect, useState } from 'react'
import { api, errorInfo } from '../api/client'

export interface RunOutputState {
  output?: unknown
  error?: string
  loading: boolean
}

/** Fetches the output of `runId` once `wanted` is true (a finished run whose output was not sent inline). */
export function useRunOutput(runId: string | undefined, wanted: boolean): RunOutputState {
  const key = wanted ? runId : undefined
  const [result, setResult] = useState<{ key: string; output?: unknown; error?: string }>()
  useEffect(() => {
    if (!key) return
    let live = true
    api.runOutput(key).then(
      (r) => live && setResult({ key, output: r.output }),
      (e) => live && setResult({ key, error: errorInfo(e).message }),
    )
    return () => {
      live = false
    }
  }, [key])
  if (!key) return { loading: false }
  if (result?.key !== key) return { loading: true }
  return { output: result.output, error: result.error, loading: false }
}
