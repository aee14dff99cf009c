//! Which running step the canvas should bring into view (useFollowRun.ts), as a pure choice:
//! when steps start and none of the running steps is on screen, the one that started last.
import type { Box } from './geometry'

/** The canvas as shown: its size in CSS px and React Flow's transform. */
export interface Shown {
  x: number
  y: number
  zoom: number
  width: number
  height: number
}

/** A node this close to the canvas edge counts as off-screen (CSS px). */
const EDGE = 8

export function onScreen(box: Box, shown: Shown): boolean {
  const left = box.x * shown.zoom + shown.x
  const top = box.y * shown.zoom + shown.y
  return left >= EDGE && top >= EDGE && left + box.width * shown.zoom <= shown.width - EDGE && top + box.height * shown.zoom <= shown.height - EDGE
}

/** The step to pan to, if any: `running` are the steps running now, `started` those just started. */
export function stepToFollow(running: string[], started: string[], boxOf: (id: string) => Box | undefined, shown: Shown): string | undefined {
  if (started.length === 0) return undefined
  const visible = (id: string) => {
    const box = boxOf(id)
    return box !== undefined && onScreen(box, shown)
  }
  if (running.some(visible)) return undefined
  return [...started].reverse().find((id) => boxOf(id) !== undefined)
}
