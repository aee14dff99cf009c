import { Position } from '@xyflow/react'
import { describe, expect, it } from 'vitest'
import { edgePath, followsRoute } from './edgePath'
import type { Route } from './layout'

const route: Route = {
  from: { x: 200, y: 50 },
  to: { x: 500, y: 150 },
  points: [
    { x: 250, y: 50 },
    { x: 250, y: 300 },
    { x: 450, y: 300 },
    { x: 450, y: 150 },
  ],
}
const ends = (sourceX: number, sourceY: number, targetX: number, targetY: number) => ({
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition: Position.Right,
  targetPosition: Position.Left,
})

describe('edgePath', () => {
  it('follows the route while both nodes are where it was made for (handles reach a little out)', () => {
    expect(followsRoute(route, ends(203, 50, 497, 150))).toBe(true)
    expect(followsRoute(route, ends(208, 50, 492, 150))).toBe(true)
    const [path, x, y] = edgePath(ends(203, 50, 497, 150), route)
    expect(path).toMatch(/^M 203 50 L 24\d/)
    expect(path).toContain('L 450 ')
    expect(path.endsWith('497 150')).toBe(true)
    // Its label goes halfway along it: on the run below.
    expect(y).toBeCloseTo(300)
    expect(x).toBeGreaterThan(250)
  })

  it('falls back to a bezier once a node moved, or without a route', () => {
    expect(followsRoute(route, ends(203, 80, 497, 150))).toBe(false)
    expect(followsRoute(route, ends(203, 50, 597, 150))).toBe(false)
    const [moved] = edgePath(ends(203, 80, 497, 150), route)
    const [plain] = edgePath(ends(203, 80, 497, 150))
    expect(moved).toBe(plain)
    expect(moved).not.toContain('L 450')
  })
})
