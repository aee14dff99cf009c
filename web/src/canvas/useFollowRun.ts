//! Keeps the running step in view during a run (any run, not only step-through): when a step
//! starts and no running step is on screen, the canvas pans to the one that started last, at the
//! zoom the person chose (follow.ts). Only starts move the view, so the person may pan freely
//! while a step runs. In a sub-workflow, the child run's steps are followed.
import { useReactFlow, useStoreApi } from '@xyflow/react'
import { useEffect } from 'react'
import type { StepState } from '../api/types'
import type { RunView } from '../state/runReducer'
import { useApp } from '../app/AppContext'
import { runAt, useCanvasScope } from './canvasScope'
import { stepToFollow } from './follow'
import type { Box } from './geometry'
import { isActive } from './useStepRun'

/** How long the pan animates (ms). */
const FOLLOW_MS = 300

const NO_STEPS: Record<string, StepState> = {}

function runningIds(steps: Record<string, StepState>): string[] {
  return Object.keys(steps).filter((id) => isActive(steps[id]?.status))
}

/** Follows the run on this canvas; `nodeIdOf` maps a step id to its React Flow node id. */
export function useFollowRun(nodeIdOf: (stepId: string) => string = (id) => id): void {
  const store = useStoreApi()
  const { setCenter } = useReactFlow()
  const runs = useApp().stores.run
  const { path } = useCanvasScope()
  useEffect(() => {
    const stepsOf = (run: RunView) => runAt(run, path)?.steps ?? NO_STEPS
    let before = runningIds(stepsOf(runs.getState()))
    // While a pan animates, the zoom on screen dips (d3 zooms out and in again along the way):
    // a step starting then is followed at the zoom of the pan under way, not the dip.
    let panning: { zoom: number; until: number } | undefined
    return runs.subscribe((run, prev) => {
      const steps = stepsOf(run)
      if (steps === stepsOf(prev)) return
      const running = runningIds(steps)
      const started = running.filter((id) => !before.includes(id))
      before = running
      const { transform, width, height, nodeLookup } = store.getState()
      const boxOf = (id: string): Box | undefined => {
        const node = nodeLookup.get(nodeIdOf(id))
        if (!node) return undefined
        const { x, y } = node.internals.positionAbsolute
        return { x, y, width: node.measured.width ?? node.width ?? 0, height: node.measured.height ?? node.height ?? 0 }
      }
      const [x, y, shownZoom] = transform
      const zoom = panning && performance.now() < panning.until ? panning.zoom : shownZoom
      const id = stepToFollow(running, started, boxOf, { x, y, zoom: shownZoom, width, height })
      const box = id === undefined ? undefined : boxOf(id)
      if (!box) return
      panning = { zoom, until: performance.now() + FOLLOW_MS }
      void setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom, duration: FOLLOW_MS })
    })
  }, [store, setCenter, nodeIdOf, runs, path])
}
