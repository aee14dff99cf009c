//! Fit-to-view that keeps the graph readable: it never zooms out past the zoom at which node
//! titles are LEGIBLE_TITLE_PX on screen. The layout wraps a graph that would not fit at that
//! zoom when wrapping makes it fit (layout.ts); one that fits no way is shown from its start
//! (the inputs and first layer), legible and pannable, rather than whole and tiny. Only fitting
//! is clamped; the user's own zooming stays free.
import type { Viewport } from '@xyflow/react'
import { unionBox, type Box } from './geometry'
import type { LayoutView } from './layout'
import { TITLE_PX } from './textSx'

export type { Box } from './geometry'

/** The smallest a node title may be drawn on screen after a fit (CSS px). */
export const LEGIBLE_TITLE_PX = 11
/** Space kept between the graph and the canvas edge, as a fraction of the canvas. */
const PADDING = 0.15
/** Space kept at the canvas edge when the graph is larger than the canvas (CSS px). */
export const FIT_MARGIN = 24
/** A fit never magnifies a small graph past this (times `scale`). */
const MAX_FIT_ZOOM = 1.25

export interface FitOptions {
  /** Drawing scale on top of the normal fit: presenter mode draws nodes larger. */
  scale?: number
  /** The title font size in CSS px (at zoom 1). */
  titlePx?: number
  /** What is drawn beyond the nodes (edges routed round the graph's sides), to be shown too. */
  reach?: Box[]
}

/** The least zoom at which a title of `titlePx` is at least LEGIBLE_TITLE_PX on screen. */
export function legibleZoom(titlePx: number = TITLE_PX, scale = 1): number {
  return (LEGIBLE_TITLE_PX / titlePx) * scale
}

/** The view a layout is made for on a `width` × `height` canvas: what a fit will allow. */
export function fitView(width: number, height: number, scale = 1): LayoutView {
  return { width, height, zoom: legibleZoom(TITLE_PX, scale), margin: FIT_MARGIN }
}

/**
 * The first layer: the nodes whose horizontal centre lies within the leftmost node's span (the
 * layout is left to right, so that is the inputs node and anything ranked beside it).
 */
function firstLayer(boxes: Box[]): Box {
  const leftmost = boxes.reduce((a, b) => (b.x < a.x ? b : a))
  return unionBox(boxes.filter((b) => b.x + b.width / 2 <= leftmost.x + leftmost.width))
}

/**
 * Where to look at `nodes` on a `width` × `height` canvas. The zoom fits the whole graph with
 * padding, clamped to [legible zoom, MAX_FIT_ZOOM] (both times `scale`). Along an axis the graph
 * does not fit at that zoom, it is aligned to its start (left edge; vertically, the first layer
 * centred but no empty space past the graph's top or bottom); along one it fits, it is centred.
 */
export function legibleViewport(nodes: Box[], width: number, height: number, options: FitOptions = {}): Viewport {
  const scale = options.scale ?? 1
  const floor = legibleZoom(options.titlePx, scale)
  if (nodes.length === 0 || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: floor }
  const graph = unionBox([...nodes, ...(options.reach ?? [])])
  const whole = Math.min((width * (1 - PADDING)) / graph.width, (height * (1 - PADDING)) / graph.height)
  const zoom = Math.max(floor, Math.min(whole, MAX_FIT_ZOOM * scale))
  const centre = (size: number, start: number, extent: number) => (size - extent * zoom) / 2 - start * zoom

  const x = graph.width * zoom <= width - 2 * FIT_MARGIN ? centre(width, graph.x, graph.width) : FIT_MARGIN - graph.x * zoom
  let y = centre(height, graph.y, graph.height)
  if (graph.height * zoom > height - 2 * FIT_MARGIN) {
    const start = firstLayer(nodes)
    const focus = height / 2 - (start.y + start.height / 2) * zoom
    const top = FIT_MARGIN - graph.y * zoom
    const bottom = height - FIT_MARGIN - (graph.y + graph.height) * zoom
    y = Math.min(top, Math.max(bottom, focus))
  }
  return { x, y, zoom }
}
