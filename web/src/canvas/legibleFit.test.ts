import { describe, expect, it } from 'vitest'
import { FIT_MARGIN, fitView, LEGIBLE_TITLE_PX, legibleViewport, legibleZoom, type Box } from './legibleFit'
import { TITLE_PX } from './textSx'

/** Multi-Collection Search as laid out: inputs, two searches side by side, merge, rerank, output. */
const WIDE: Box[] = [
  { x: 20, y: 60, width: 200, height: 158 },
  { x: 310, y: 20, width: 240, height: 92 },
  { x: 310, y: 140, width: 240, height: 92 },
  { x: 640, y: 80, width: 240, height: 92 },
  { x: 970, y: 80, width: 240, height: 92 },
  { x: 1300, y: 90, width: 200, height: 70 },
]

const onScreen = (zoom: number) => TITLE_PX * zoom

describe('legibleZoom', () => {
  it('is the zoom at which a title is drawn LEGIBLE_TITLE_PX high', () => {
    expect(legibleZoom(14)).toBeCloseTo(11 / 14)
    expect(onScreen(legibleZoom())).toBeCloseTo(LEGIBLE_TITLE_PX)
    expect(legibleZoom(13, 1.5)).toBeCloseTo((11 / 13) * 1.5)
  })
})

describe('legibleViewport', () => {
  it('fits and centres a graph that fits at a legible zoom', () => {
    const small = WIDE.slice(0, 2)
    const { x, y, zoom } = legibleViewport(small, 1200, 800)
    expect(zoom).toBe(1.25)
    // Centred: equal space left and right of the graph.
    const left = x + 20 * zoom
    const right = 1200 - (x + 550 * zoom)
    expect(left).toBeCloseTo(right)
    expect(y + 20 * zoom).toBeCloseTo(800 - (y + 218 * zoom))
  })

  it('never zooms out past legible titles: a wide graph on a narrow canvas shows its start', () => {
    const { x, y, zoom } = legibleViewport(WIDE, 1000, 600)
    expect(onScreen(zoom)).toBeGreaterThanOrEqual(LEGIBLE_TITLE_PX - 1e-9)
    // The inputs node (left edge 20) sits at the canvas's left margin, wholly on screen.
    expect(x + 20 * zoom).toBeCloseTo(24)
    // The graph fits vertically, so it is centred that way.
    expect(y + 20 * zoom).toBeCloseTo(600 - (y + 232 * zoom))
  })

  it('zooms out as far as needed when legible titles allow it', () => {
    const { zoom } = legibleViewport(WIDE, 2400, 900)
    expect(zoom).toBeGreaterThan(legibleZoom())
    expect(zoom).toBeLessThanOrEqual(1.25)
  })

  it('centres the first layer vertically when the graph is too tall, without empty space above', () => {
    const tall: Box[] = [{ x: 0, y: 0, width: 200, height: 100 }, ...Array.from({ length: 20 }, (_, i) => ({ x: 300, y: i * 120, width: 240, height: 92 }))]
    const { y, zoom } = legibleViewport(tall, 800, 400)
    expect(zoom).toBeCloseTo(legibleZoom())
    // The inputs node (centre y 50) would sit at the middle, but that leaves space above the
    // graph's top, so the top is pinned to the margin instead.
    expect(y).toBeCloseTo(24)
  })

  it('draws larger in presenter scale', () => {
    const normal = legibleViewport(WIDE, 1000, 600)
    const presented = legibleViewport(WIDE, 1000, 600, { scale: 1.5 })
    expect(presented.zoom).toBeCloseTo(normal.zoom * 1.5)
  })

  it('keeps in view what is drawn beyond the nodes (edges routed round the sides)', () => {
    const small = WIDE.slice(0, 2)
    const plain = legibleViewport(small, 1200, 800)
    const reached = legibleViewport(small, 1200, 800, { reach: [{ x: -200, y: 20, width: 0, height: 0 }] })
    // Centred on the wider extent: the point at x = -200 is on screen.
    expect(reached.x + -200 * reached.zoom).toBeGreaterThan(0)
    expect(reached.x).toBeGreaterThan(plain.x)
  })

  it('describes the view a layout is made for: the canvas, the legible zoom and the margin', () => {
    expect(fitView(1024, 614)).toEqual({ width: 1024, height: 614, zoom: legibleZoom(), margin: FIT_MARGIN })
    expect(fitView(1024, 552, 1.5).zoom).toBeCloseTo(legibleZoom() * 1.5)
  })

  it('leaves an empty graph or unmeasured canvas at the legible zoom', () => {
    expect(legibleViewport([], 800, 600)).toEqual({ x: 0, y: 0, zoom: legibleZoom() })
    expect(legibleViewport(WIDE, 0, 0).zoom).toBe(legibleZoom())
  })
})
