//! Plane geometry for the canvas: boxes, the pieces an edge is drawn with (straight lines and
//! curves with horizontal ends), their SVG path, and whether a drawn edge passes through a box.
//! Pure; the layout, the edge component and the editor's placement all use it.

export interface XY {
  x: number
  y: number
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export type Piece = { kind: 'line'; a: XY; b: XY } | { kind: 'cubic'; a: XY; c1: XY; c2: XY; b: XY }

/** Rounding of the corners where a route turns between a horizontal and a vertical run. */
const CORNER = 8

/** Whether two boxes overlap, each grown by `gap` (touching counts when gap > 0). */
export function boxesOverlap(a: Box, b: Box, gap = 0): boolean {
  return a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap
}

/** The smallest box holding all of `boxes` (which must not be empty). */
export function unionBox(boxes: Box[]): Box {
  let left = Infinity
  let top = Infinity
  let right = -Infinity
  let bottom = -Infinity
  for (const b of boxes) {
    left = Math.min(left, b.x)
    top = Math.min(top, b.y)
    right = Math.max(right, b.x + b.width)
    bottom = Math.max(bottom, b.y + b.height)
  }
  return { x: left, y: top, width: right - left, height: bottom - top }
}

const same = (a: XY, b: XY) => Math.abs(a.x - b.x) < 0.01 && Math.abs(a.y - b.y) < 0.01
const plumb = (a: XY, b: XY) => Math.abs(a.x - b.x) < 0.01
const straight = (a: XY, b: XY) => plumb(a, b) || Math.abs(a.y - b.y) < 0.01

/** A curve from `a` to `b` leaving and arriving horizontally: it stays within their bounding box. */
function sCurve(a: XY, b: XY): Piece {
  const dx = (b.x - a.x) / 2
  return { kind: 'cubic', a, c1: { x: a.x + dx, y: a.y }, c2: { x: b.x - dx, y: b.y }, b }
}

/**
 * The pieces of an edge from `source` through `points` to `target`: a straight run between
 * points level or plumb with each other (corners between two such runs rounded, inside the
 * corner's square), a curve with horizontal ends between any others.
 */
export function routePieces(source: XY, points: XY[], target: XY): Piece[] {
  const all: XY[] = []
  for (const p of [source, ...points, target]) if (all.length === 0 || !same(all[all.length - 1], p)) all.push(p)
  const pieces: Piece[] = []
  // Where the next piece starts: a corner moves it along the run it rounds into.
  let from = all[0]
  for (let i = 1; i < all.length; i++) {
    const p = all[i - 1]
    const q = all[i]
    if (!straight(p, q)) {
      pieces.push(sCurve(from, q))
      from = q
      continue
    }
    const next = all[i + 1]
    if (next === undefined || !straight(q, next) || plumb(p, q) === plumb(q, next)) {
      pieces.push({ kind: 'line', a: from, b: q })
      from = q
      continue
    }
    // A corner at q: stop short of it, round it, and start the next run past it.
    const r = Math.min(CORNER, distance(p, q) / 2, distance(q, next) / 2)
    const before = toward(q, p, r)
    const after = toward(q, next, r)
    pieces.push({ kind: 'line', a: from, b: before })
    pieces.push({ kind: 'cubic', a: before, c1: lerp(before, q, 2 / 3), c2: lerp(after, q, 2 / 3), b: after })
    from = after
  }
  return pieces
}

function distance(a: XY, b: XY): number {
  return Math.hypot(b.x - a.x, b.y - a.y)
}

function lerp(a: XY, b: XY, t: number): XY {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }
}

/** The point `r` from `from` toward `to`. */
function toward(from: XY, to: XY, r: number): XY {
  const d = distance(from, to)
  return d === 0 ? from : lerp(from, to, r / d)
}

const num = (n: number) => Math.round(n * 100) / 100

/** The SVG path of `pieces`. */
export function piecesPath(pieces: Piece[]): string {
  if (pieces.length === 0) return ''
  const parts = [`M ${num(pieces[0].a.x)} ${num(pieces[0].a.y)}`]
  for (const p of pieces) {
    if (p.kind === 'line') parts.push(`L ${num(p.b.x)} ${num(p.b.y)}`)
    else parts.push(`C ${num(p.c1.x)} ${num(p.c1.y)} ${num(p.c2.x)} ${num(p.c2.y)} ${num(p.b.x)} ${num(p.b.y)}`)
  }
  return parts.join(' ')
}

function cubicAt(p: Extract<Piece, { kind: 'cubic' }>, t: number): XY {
  const u = 1 - t
  const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]
  return {
    x: w[0] * p.a.x + w[1] * p.c1.x + w[2] * p.c2.x + w[3] * p.b.x,
    y: w[0] * p.a.y + w[1] * p.c1.y + w[2] * p.c2.y + w[3] * p.b.y,
  }
}

/** The pieces as a polyline, curves cut into `steps` chords each. */
export function flatten(pieces: Piece[], steps = 16): XY[] {
  if (pieces.length === 0) return []
  const out: XY[] = [pieces[0].a]
  for (const p of pieces) {
    if (p.kind === 'line') out.push(p.b)
    else for (let i = 1; i <= steps; i++) out.push(cubicAt(p, i / steps))
  }
  return out
}

/** The point halfway along a polyline (where an edge's label goes). */
export function halfway(line: XY[]): XY {
  let total = 0
  for (let i = 1; i < line.length; i++) total += distance(line[i - 1], line[i])
  let left = total / 2
  for (let i = 1; i < line.length; i++) {
    const d = distance(line[i - 1], line[i])
    if (d >= left && d > 0) return lerp(line[i - 1], line[i], left / d)
    left -= d
  }
  return line[line.length - 1] ?? { x: 0, y: 0 }
}

/** Whether the segment a–b passes through the inside of `box` (Liang–Barsky clipping). */
export function segmentHitsBox(a: XY, b: XY, box: Box): boolean {
  const dx = b.x - a.x
  const dy = b.y - a.y
  let t0 = 0
  let t1 = 1
  const edges: Array<[number, number]> = [
    [-dx, a.x - box.x],
    [dx, box.x + box.width - a.x],
    [-dy, a.y - box.y],
    [dy, box.y + box.height - a.y],
  ]
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q <= 0) return false
      continue
    }
    const t = q / p
    if (p < 0) t0 = Math.max(t0, t)
    else t1 = Math.min(t1, t)
    if (t0 >= t1) return false
  }
  return true
}

/** Whether a polyline passes through the inside of `box` shrunk by `inset` on every side. */
export function lineHitsBox(line: XY[], box: Box, inset = 1): boolean {
  const inner = { x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset }
  if (inner.width <= 0 || inner.height <= 0) return false
  for (let i = 1; i < line.length; i++) if (segmentHitsBox(line[i - 1], line[i], inner)) return true
  return false
}
