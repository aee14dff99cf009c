import { describe, expect, it } from 'vitest'
import { boxesOverlap, flatten, halfway, lineHitsBox, piecesPath, routePieces, segmentHitsBox, unionBox, type Box, type XY } from './geometry'

const box: Box = { x: 100, y: 100, width: 100, height: 50 }

describe('segmentHitsBox', () => {
  it('finds a segment through the box, or ending inside it', () => {
    expect(segmentHitsBox({ x: 0, y: 125 }, { x: 300, y: 125 }, box)).toBe(true)
    expect(segmentHitsBox({ x: 150, y: 0 }, { x: 150, y: 300 }, box)).toBe(true)
    expect(segmentHitsBox({ x: 0, y: 0 }, { x: 150, y: 125 }, box)).toBe(true)
    // Diagonally across one corner.
    expect(segmentHitsBox({ x: 90, y: 120 }, { x: 120, y: 90 }, box)).toBe(true)
  })

  it('misses a segment beside, above or only touching the box', () => {
    expect(segmentHitsBox({ x: 0, y: 90 }, { x: 300, y: 90 }, box)).toBe(false)
    expect(segmentHitsBox({ x: 210, y: 0 }, { x: 210, y: 300 }, box)).toBe(false)
    expect(segmentHitsBox({ x: 80, y: 120 }, { x: 120, y: 80 }, box)).toBe(false)
    expect(segmentHitsBox({ x: 0, y: 0 }, { x: 50, y: 50 }, box)).toBe(false)
  })
})

describe('lineHitsBox', () => {
  it('does not count the border strip `inset` wide', () => {
    const alongTop = [
      { x: 0, y: 100.5 },
      { x: 300, y: 100.5 },
    ]
    expect(lineHitsBox(alongTop, box)).toBe(false)
    expect(lineHitsBox(alongTop, box, 0)).toBe(true)
  })
})

describe('boxesOverlap and unionBox', () => {
  it('overlap, with a gap counting as overlap', () => {
    const right = { ...box, x: 210 }
    expect(boxesOverlap(box, right)).toBe(false)
    expect(boxesOverlap(box, right, 20)).toBe(true)
    expect(unionBox([box, right])).toEqual({ x: 100, y: 100, width: 210, height: 50 })
  })
})

/** The smallest box holding the points. */
function hull(points: XY[]): Box {
  return unionBox(points.map((p) => ({ ...p, width: 0, height: 0 })))
}

describe('routePieces', () => {
  it('draws runs level or plumb as lines and joins them with rounded corners inside the corner', () => {
    const pieces = routePieces(
      { x: 0, y: 0 },
      [
        { x: 100, y: 0 },
        { x: 100, y: 200 },
      ],
      { x: 300, y: 200 },
    )
    expect(pieces.map((p) => p.kind)).toEqual(['line', 'cubic', 'line', 'cubic', 'line'])
    // Each corner stays in the square of its radius around the corner point.
    const first = hull(flatten([pieces[1]]))
    expect(first.x).toBeGreaterThanOrEqual(92 - 1e-9)
    expect(first.x + first.width).toBeLessThanOrEqual(100 + 1e-9)
    expect(first.y + first.height).toBeLessThanOrEqual(8 + 1e-9)
    // Ends where it should.
    expect(pieces.at(-1)!.kind === 'line' && pieces.at(-1)!.b).toEqual({ x: 300, y: 200 })
  })

  it('joins points that are neither level nor plumb with a curve that stays between them', () => {
    const pieces = routePieces({ x: 0, y: 0 }, [{ x: 40, y: 0 }], { x: 120, y: 90 })
    expect(pieces.map((p) => p.kind)).toEqual(['line', 'cubic'])
    const curve = hull(flatten([pieces[1]]))
    expect(curve).toEqual({ x: 40, y: 0, width: 80, height: 90 })
  })

  it('drops repeated points and draws a path React Flow can use', () => {
    const pieces = routePieces(
      { x: 0, y: 0 },
      [
        { x: 0, y: 0 },
        { x: 50, y: 0 },
      ],
      { x: 100, y: 0 },
    )
    expect(pieces.map((p) => p.kind)).toEqual(['line', 'line'])
    expect(piecesPath(pieces)).toBe('M 0 0 L 50 0 L 100 0')
    expect(halfway(flatten(pieces))).toEqual({ x: 50, y: 0 })
  })
})
