//! How big the minimap may be on a canvas of a given size: none on a small canvas (it would
//! cover the graph it maps), smaller on a medium one, React Flow's default otherwise.

/** Below either of these (CSS px) the canvas has no room for a minimap. */
export const MINIMAP_MIN_CANVAS = { width: 700, height: 450 } as const
const SMALL_BELOW = { width: 1100, height: 700 } as const

export type MiniMapSize = 'hidden' | 'small' | 'full'

export const MINIMAP_DIMENSIONS = {
  small: { width: 140, height: 90 },
  full: { width: 200, height: 150 },
} as const

export function miniMapSize(canvasWidth: number, canvasHeight: number): MiniMapSize {
  if (canvasWidth < MINIMAP_MIN_CANVAS.width || canvasHeight < MINIMAP_MIN_CANVAS.height) return 'hidden'
  if (canvasWidth < SMALL_BELOW.width || canvasHeight < SMALL_BELOW.height) return 'small'
  return 'full'
}
