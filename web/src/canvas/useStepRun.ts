//! One step's run state, read through a selector so a status change re-renders only its node.
//! Also keeps the "running" glow visible for at least MIN_GLOW_MS, so steps that finish in a
//! few milliseconds still visibly light up. In a sub-workflow drawn on the canvas, the step is
//! the child run's (canvasScope.ts).
import { useEffect, useState } from 'react'
import type { StepState, StepStatus } from '../api/types'
import { useApp } from '../app/AppContext'
import { useRunStore } from '../state/runStore'
import { runAt, useCanvasScope } from './canvasScope'

export const MIN_GLOW_MS = 300

export type NodeStatus = StepStatus | 'idle'

export function isActive(status: NodeStatus | undefined): boolean {
  return status === 'running' || status === 'retrying'
}

export interface StepRun {
  state?: StepState
  status: NodeStatus
  /** Running now, or finished less than MIN_GLOW_MS after it started. */
  glowing: boolean
}

export function useStepRun(id: string): StepRun {
  const { path } = useCanvasScope()
  const state = useRunStore((s): StepState | undefined => runAt(s, path)?.steps[id])
  const runs = useApp().stores.run
  const [held, setHeld] = useState(false)

  // The store's own subscription sees every transition, even ones React batches into a
  // single render (step_started and step_completed in the same tick).
  useEffect(() => {
    let startedAt: number | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = runs.subscribe((next, prev) => {
      const now = runAt(next, path)?.steps[id]?.status
      if (now === runAt(prev, path)?.steps[id]?.status) return
      if (isActive(now)) {
        startedAt ??= performance.now()
        return
      }
      if (startedAt === undefined) return
      const left = startedAt + MIN_GLOW_MS - performance.now()
      startedAt = undefined
      if (left <= 0) return
      clearTimeout(timer)
      setHeld(true)
      timer = setTimeout(() => setHeld(false), left)
    })
    return () => {
      unsubscribe()
      clearTimeout(timer)
    }
  }, [id, path, runs])

  const status: NodeStatus = state?.status ?? 'idle'
  const finished = status !== 'idle' && status !== 'pending'
  return { state, status, glowing: isActive(status) || (held && finished) }
}
