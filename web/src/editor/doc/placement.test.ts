import { describe, expect, it } from 'vitest'
import type { GraphEdge, GraphNode } from '../../api/types'
import { boxesOverlap, type Box } from '../../canvas/geometry'
import { STEP_SIZE } from '../../canvas/layout'
import { besides, freeOffset, freeSpot, GAP, occupiedBoxes, placeMissing, sizeOf } from './placement'

const step = (id: string) => ({ kind: 'step', id, name: id, tool: 't', category: 'utility', color: '#fff', icon: 'X', continueOnError: false }) as GraphNode
const at = (x: number, y: number): Box => ({ x, y, ...STEP_SIZE })

function overlapping(boxes: Box[]): string[] {
  const out: string[] = []
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (boxesOverlap(boxes[i], boxes[j])) out.push(`${i}/${j}`)
  return out
}

describe('freeSpot', () => {
  it('keeps a free spot as asked', () => {
    expect(freeSpot(STEP_SIZE, { x: 5, y: 5 }, [])).toEqual({ x: 5, y: 5 })
    expect(freeSpot(STEP_SIZE, { x: 0, y: 0 }, [at(500, 500)])).toEqual({ x: 0, y: 0 })
  })

  it('moves off a node to the nearest free spot, keeping a gap', () => {
    const taken = [at(0, 0)]
    const spot = freeSpot(STEP_SIZE, { x: 10, y: 10 }, taken)
    expect(boxesOverlap({ ...spot, ...STEP_SIZE }, taken[0], GAP - 1)).toBe(false)
    // Nearest: just below (the node is wider than tall).
    expect(spot).toEqual({ x: 10, y: STEP_SIZE.height + GAP })
  })

  it('finds the hole between nodes', () => {
    const grid = [at(0, 0), at(500, 0), at(0, 250), at(500, 250)]
    const hole = freeSpot(STEP_SIZE, { x: 180, y: 100 }, grid)
    expect(overlapping([...grid, { ...hole, ...STEP_SIZE }])).toEqual([])
    expect(Math.hypot(hole.x - 180, hole.y - 100)).toBeLessThan(40)
  })
})

describe('besides', () => {
  it('puts a node right of its anchor, and below whatever is there already', () => {
    const anchor = at(0, 0)
    const first = besides(anchor, STEP_SIZE, [anchor])
    expect(first.x).toBeGreaterThanOrEqual(STEP_SIZE.width)
    expect(first.y).toBe(0)
    const second = besides(anchor, STEP_SIZE, [anchor, { ...first, ...STEP_SIZE }])
    expect(overlapping([anchor, { ...first, ...STEP_SIZE }, { ...second, ...STEP_SIZE }])).toEqual([])
    expect(second.x).toBeGreaterThan(anchor.x + anchor.width)
  })
})

describe('freeOffset', () => {
  it('moves a pasted group, as one, off the nodes it would cover', () => {
    const existing = [at(0, 0), at(250, 0), at(0, 120)]
    const pasted = [at(20, 20), at(270, 20)]
    const shift = freeOffset(pasted, existing)
    const moved = pasted.map((b) => ({ ...b, x: b.x + shift.x, y: b.y + shift.y }))
    expect(overlapping([...existing, ...moved])).toEqual([])
    // The group keeps its own layout.
    expect(moved[1].x - moved[0].x).toBe(250)
    expect(freeOffset([at(900, 900)], existing)).toEqual({ x: 0, y: 0 })
  })
})

describe('placeMissing', () => {
  it('places nodes without a position beside their source or below everything', () => {
    const edges = [{ source: 'a', target: 'b' }] as GraphEdge[]
    const placed = placeMissing([step('a'), step('b'), step('c')], edges, { a: { x: 0, y: 0 } })
    expect(placed.b.x).toBeGreaterThan(STEP_SIZE.width)
    expect(placed.b.y).toBe(0)
    expect(placed.c.y).toBeGreaterThan(STEP_SIZE.height)
    expect(Object.keys(placed)).toEqual(['b', 'c'])
  })

  it('never lands a node on one the document placed, whatever its size', () => {
    const inputs = {
      kind: 'inputs',
      id: '__inputs',
      inputs: Array.from({ length: 6 }, (_, i) => ({ name: `i${i}`, type: 'string', required: false })),
    } as GraphNode
    const nodes = [inputs, step('a'), step('b'), step('c'), { kind: 'output', id: '__output', fields: ['x'] } as GraphNode]
    const edges = [
      { source: '__inputs', target: 'a' },
      { source: 'a', target: 'b' },
      { source: 'a', target: 'c' },
      { source: 'c', target: '__output' },
    ] as GraphEdge[]
    // Only two nodes placed, and where the others would go beside them.
    const known = { __inputs: { x: 0, y: 0 }, b: { x: sizeOf(inputs).width + 60, y: 0 } }
    const placed = placeMissing(nodes, edges, known)
    const all = { ...known, ...placed }
    expect(overlapping(occupiedBoxes(nodes, all))).toEqual([])
  })
})
