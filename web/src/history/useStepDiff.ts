//! How step `id` of the run on the canvas compares with run A, while two runs are compared and
//! the run shown is B (a sub-workflow drawn in place has no comparison).
import type { StepDiff } from '../api/types'
import { useRunStore } from '../state/runStore'
import { diffOnCanvas, useHistoryStore } from './historyStore'

export function useStepDiff(id: string, inSub = false): StepDiff | undefined {
  const runId = useRunStore((s) => s.runId)
  return useHistoryStore((s) => (inSub ? undefined : diffOnCanvas(s, { runId })?.steps.find((step) => step.id === id)))
}
