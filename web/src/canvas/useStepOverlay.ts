//! What the cost and time overlay shows on one step node, read through narrow selectors: whether
//! it is on, whether the step is on the run's critical path, and what its model calls used. In a
//! sub-workflow drawn on the canvas, the run is the child run (canvasScope.ts).
import type { Usage } from '../api/types'
import { stepUsageOf } from '../state/runReducer'
import { useRunStore } from '../state/runStore'
import { runAt, useCanvasScope } from './canvasScope'
import { memoCriticalPath } from './criticalPath'
import { useCanvasStore } from './useCanvasStore'

export interface StepOverlay {
  on: boolean
  critical: boolean
  usage?: Usage
}

export function useStepOverlay(id: string): StepOverlay {
  const on = useCanvasStore((s) => s.overlay)
  const { path, edges } = useCanvasScope()
  const critical = useRunStore((s) => on && memoCriticalPath(runAt(s, path)?.steps, edges?.()).steps.includes(id))
  const usage = useRunStore((s) => {
    const run = on ? runAt(s, path) : undefined
    return run && stepUsageOf(run, id)
  })
  return { on, critical, usage }
}

/** Whether the edge `source → target` joins two steps of the critical path, with the overlay on. */
export function useCriticalLink(source: string, target: string): boolean {
  const on = useCanvasStore((s) => s.overlay)
  const { path, edges } = useCanvasScope()
  return useRunStore((s) => on && memoCriticalPath(runAt(s, path)?.steps, edges?.()).links.has(`${source}>${target}`))
}
