//! A finished step's resolved inputs and full output, fetched from the step route.
import { useEffect, useState } from 'react'
import { api, errorInfo } from '../api/client'
import type { StepDetail, StepStatus } from '../api/types'

const FINISHED: ReadonlySet<StepStatus | undefined> = new Set(['completed', 'failed', 'skipped', 'cancelled'])

export interface StepDetailState {
  detail?: StepDetail
  error?: string
  loading: boolean
}

export function useStepDetail(runId: string | undefined, stepId: string, status: StepStatus | undefined): StepDetailState {
  const key = runId && FINISHED.has(status) ? `${runId}\u0000${stepId}\u0000${status}` : undefined
  const [result, setResult] = useState<{ key: string; detail?: StepDetail; error?: string }>()
  useEffect(() => {
    if (!key || !runId) return
    let live = true
    api.stepOutput(runId, stepId).then(
      (detail) => live && setResult({ key, detail }),
      (e) => live && setResult({ key, error: errorInfo(e).message }),
    )
    return () => {
      live = false
    }
  }, [key, runId, stepId])
  if (!key) return { loading: false }
  if (result?.key !== key) return { loading: true }
  return { detail: result.detail, error: result.error, loading: false }
}
