import { describe, expect, it } from 'vitest'
import type { GraphEdge, GraphNode } from '../../api/types'
import { STEP_SIZE } from '../../canvas/layout'
import { besides, freeSpot, placeMissing } from './placement'

describe('placement', () => {
  it('puts a node beside its anchor, below anything already there', () => {
    const spot = besides({ x: 0, y: 0 }, [])
    expect(spot.x).toBeGreaterThanOrEqual(STEP_SIZE.width)
    expect(spot.y).toBe(0)
    const next = besides({ x: 0, y: 0 }, [spot])
    expect(next.x).toBe(spot.x)
    expect(next.y).toBeGreaterThanOrEqual(STEP_SIZE.height)
    expect(freeSpot({ x: 5, y: 5 }, [])).toEqual({ x: 5, y: 5 })
  })

  it('places nodes without a position beside their source or below everything', () => {
    const step = (id: string) => ({ kind: 'step', id }) as GraphNode
    const edges = [{ source: 'a', target: 'b' }] as GraphEdge[]
    const placed = placeMissing([step('a'), step('b'), step('c')], edges, { a: { x: 0, y: 0 } })
    expect(placed.b.x).toBeGreaterThan(0)
    expect(placed.b.y).toBe(0)
    expect(placed.c.y).toBeGreaterThan(0)
    expect(Object.keys(placed)).toEqual(['b', 'c'])
  })
})
