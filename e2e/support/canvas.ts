// What a spec measures on the canvas as drawn: node boxes on screen, the size titles are drawn
// at, whether the whole graph is in view, and whether an edge's drawn path passes through a node.
import { expect, type Page } from '@playwright/test'
import { regions } from './test'

/** The least size (CSS px) a node title may be drawn at after a fit. */
export const LEGIBLE_PX = 11

export interface Rect {
  left: number
  top: number
  right: number
  bottom: number
}

/** The on-screen size (CSS px) of each visible node's title: its font size times the canvas zoom. */
export async function titlePx(page: Page): Promise<number[]> {
  return regions(page).canvas.evaluate((canvas) => {
    const view = canvas.getBoundingClientRect()
    const sizes: number[] = []
    for (const el of Array.from(canvas.querySelectorAll<HTMLElement>('.react-flow__node [data-testid^="node-"]'))) {
      const box = el.getBoundingClientRect()
      if (box.right < view.left || box.left > view.right || box.bottom < view.top || box.top > view.bottom) continue
      const scale = box.width / el.offsetWidth
      // The title is the node's largest text.
      const texts = Array.from(el.querySelectorAll<HTMLElement>('*')).filter((e) =>
        Array.from(e.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()),
      )
      const font = Math.max(...texts.map((e) => parseFloat(getComputedStyle(e).fontSize)))
      sizes.push(font * scale)
    }
    return sizes
  })
}

export async function expectTitlesLegible(page: Page, atLeast = LEGIBLE_PX) {
  // Fitting animates; wait until the zoom settles above the floor.
  await expect
    .poll(
      async () => {
        const sizes = await titlePx(page)
        return sizes.length >= 3 ? Math.min(...sizes) : 0
      },
      { timeout: 5_000 },
    )
    .toBeGreaterThanOrEqual(atLeast - 0.05)
}

/** Each drawn node's box on screen, by its step id, and the flow pane's. */
export async function canvasRects(page: Page): Promise<{ pane: Rect; nodes: Record<string, Rect> }> {
  return page.locator('main[aria-label="Canvas"] .react-flow').evaluate((flow) => {
    const rect = (el: Element) => {
      const r = el.getBoundingClientRect()
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }
    }
    const nodes: Record<string, Rect> = {}
    for (const el of Array.from(flow.querySelectorAll('.react-flow__node [data-testid^="node-"]')))
      nodes[el.getAttribute('data-testid')!.slice('node-'.length)] = rect(el)
    return { pane: rect(flow), nodes }
  })
}

/** The nodes not wholly inside the flow pane (none: the graph is shown whole). */
export async function nodesOutOfView(page: Page): Promise<string[]> {
  const { pane, nodes } = await canvasRects(page)
  return Object.entries(nodes)
    .filter(([, r]) => r.left < pane.left - 0.5 || r.top < pane.top - 0.5 || r.right > pane.right + 0.5 || r.bottom > pane.bottom + 0.5)
    .map(([id]) => id)
}

/** Waits until the viewport stops moving (a fit or a pan animates). */
export async function waitForViewport(page: Page) {
  const transform = () => page.locator('main[aria-label="Canvas"] .react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform)
  let last = ''
  await expect
    .poll(
      async () => {
        const now = await transform()
        const still = now === last
        last = now
        return still
      },
      { intervals: [100], timeout: 5_000 },
    )
    .toBe(true)
}

/** Waits until the graph is drawn whole: every node inside the pane, the fit settled. */
export async function expectShownWhole(page: Page) {
  await expect.poll(() => nodesOutOfView(page), { timeout: 5_000 }).toEqual([])
}

/** Pairs of nodes whose boxes overlap, as "a / b". */
export async function overlappingNodes(page: Page): Promise<string[]> {
  const { nodes } = await canvasRects(page)
  const entries = Object.entries(nodes)
  const found: string[] = []
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const [a, r] = entries[i]
      const [b, s] = entries[j]
      if (r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom) found.push(`${a} / ${b}`)
    }
  }
  return found
}

/**
 * Every edge whose drawn path passes through a node's box (its own two nodes included), as
 * "<edge's accessible name> crosses <node>": the path is sampled every 2 px along its length on
 * screen; the first and last 4 px (the ends at the handles) and a 2 px border inside each box
 * are not counted.
 */
export async function edgesCrossingNodes(page: Page): Promise<string[]> {
  return page.locator('main[aria-label="Canvas"] .react-flow').evaluate((flow) => {
    const boxes = Array.from(flow.querySelectorAll('.react-flow__node [data-testid^="node-"]')).map((el) => ({
      id: el.getAttribute('data-testid')!.slice('node-'.length),
      r: el.getBoundingClientRect(),
    }))
    const found: string[] = []
    for (const edge of Array.from(flow.querySelectorAll('.react-flow__edge'))) {
      const path = edge.querySelector<SVGPathElement>('path.react-flow__edge-path')
      const matrix = path?.getScreenCTM()
      if (!path || !matrix) continue
      const length = path.getTotalLength()
      const scale = Math.hypot(matrix.a, matrix.b)
      const step = 2 / scale
      const margin = 4 / scale
      const crossed = new Set<string>()
      for (let at = margin; at <= length - margin; at += step) {
        const p = path.getPointAtLength(at).matrixTransform(matrix)
        for (const { id, r } of boxes) if (p.x > r.left + 2 && p.x < r.right - 2 && p.y > r.top + 2 && p.y < r.bottom - 2) crossed.add(id)
      }
      for (const id of crossed) found.push(`${edge.getAttribute('aria-label')} crosses ${id}`)
    }
    return found
  })
}
