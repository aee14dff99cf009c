//! A layout too wide for the canvas, wrapped like text: its ranks cut into consecutive bands,
//! each band a row (layoutRow.ts), the rows stacked top to bottom. An edge from one band to a
//! later one runs down the gap right of its source to the gutter under the source's band, along
//! the gutter, then down the gap left of its target (the margin left of the rows, for a target
//! in a band's first column) and into it; one that skips bands changes gutters down the left
//! margin. Gaps, gutters and margins hold no nodes, so no edge crosses one. Each source has its
//! own track in a gutter and its own line in a gap (each target too), so edges of different
//! nodes do not run on top of each other.
import type { Box, XY } from './geometry'
import { columnOf, layoutRow, linkKey, type Placed, type Row, type Size, type Span } from './layoutRow'
import type { Link } from './ranks'

/** Distance between parallel tracks in a gutter or a gap. */
const TRACK = 6
/** Space between a band's lowest drawing and its gutter's first track (and after the last). */
const GUTTER_PAD = 12
/** Space between a column and the first line in the gap beside it. */
const CHANNEL_PAD = 10

/**
 * Lays `ids` out in bands of `perBand` consecutive ranks (by `rank`), along `links` (acyclic,
 * as layout.ts gives them), and routes every link.
 */
export function wrapRows(ids: string[], sizes: Map<string, Size>, rank: Map<string, number>, links: Link[], perBand: number): Placed {
  const bandOf = (id: string) => Math.floor(rank.get(id)! / perBand)
  const count = Math.max(...ids.map(bandOf)) + 1
  const rows: Row[] = []
  for (let b = 0; b < count; b++) {
    const members = ids.filter((id) => bandOf(id) === b)
    const inside = links.filter((l) => bandOf(l.source) === b && bandOf(l.target) === b)
    rows.push(
      layoutRow(
        members,
        sizes,
        inside,
        inside.every((l) => rank.get(l.target)! - rank.get(l.source)! === 1),
      ),
    )
  }
  const crossing = links.filter((l) => bandOf(l.target) > bandOf(l.source))

  // Gutter g lies under band g. A source has one track in the gutter under its band, and one in
  // the gutter above each band it reaches past the next.
  const tracks = new Slots()
  const track = (gutter: number, source: string) => tracks.of(`${gutter}`, source)
  for (const l of crossing) {
    track(bandOf(l.source), l.source)
    if (bandOf(l.target) > bandOf(l.source) + 1) track(bandOf(l.target) - 1, l.source)
  }

  // Stack the rows, left-aligned, each below the previous one's gutter.
  const boxes = new Map<string, Box>()
  const routes = new Map<string, XY[]>()
  const gutterTop: number[] = []
  const columns: Span[][] = []
  let top = 0
  rows.forEach((row, b) => {
    const dx = -row.bounds.x
    const dy = top - row.bounds.y
    for (const [id, box] of row.boxes) boxes.set(id, { ...box, x: box.x + dx, y: box.y + dy })
    for (const [key, points] of row.routes)
      routes.set(
        key,
        points.map((p) => ({ x: p.x + dx, y: p.y + dy })),
      )
    columns.push(row.columns.map((c) => ({ left: c.left + dx, right: c.right + dx })))
    gutterTop.push(top + row.bounds.height)
    top += row.bounds.height + 2 * GUTTER_PAD + Math.max(0, tracks.count(`${b}`) - 1) * TRACK
  })
  const gutterY = (gutter: number, source: string) => gutterTop[gutter] + GUTTER_PAD + track(gutter, source) * TRACK

  // Lines in the gaps: sources leave from the gap's left side, targets are entered from its right.
  const lines = new Slots()
  const downX = (band: number, source: string) => {
    const cols = columns[band]
    const i = cols.indexOf(columnOfIn(cols, boxes.get(source)!))
    const left = cols[i].right
    const right = i + 1 < cols.length ? cols[i + 1].left : Infinity
    return inGap(left + CHANNEL_PAD + lines.of(`${band}:${i}:down`, source) * TRACK, left, right)
  }
  const upX = (band: number, target: string) => {
    const cols = columns[band]
    const i = cols.indexOf(columnOfIn(cols, boxes.get(target)!))
    const right = cols[i].left
    const left = i > 0 ? cols[i - 1].right : -Infinity
    return inGap(right - CHANNEL_PAD - lines.of(`${band}:${i}:up`, target) * TRACK, left, right)
  }
  // Targets in first columns are entered from the left margin; sources skipping bands go down
  // it further left, each on its own line.
  const skipping = [...new Set(crossing.filter((l) => bandOf(l.target) > bandOf(l.source) + 1).map((l) => l.source))]
  const firstColumnTargets = new Set(
    crossing.filter((l) => columnOfIn(columns[bandOf(l.target)], boxes.get(l.target)!) === columns[bandOf(l.target)][0]).map((l) => l.target),
  )
  const marginX = (source: string) => -CHANNEL_PAD - (firstColumnTargets.size + skipping.indexOf(source)) * TRACK

  for (const l of crossing) {
    const s = boxes.get(l.source)!
    const t = boxes.get(l.target)!
    const from = bandOf(l.source)
    const to = bandOf(l.target)
    const down = downX(from, l.source)
    const points: XY[] = [
      { x: down, y: s.y + s.height / 2 },
      { x: down, y: gutterY(from, l.source) },
    ]
    let y = gutterY(from, l.source)
    if (to > from + 1) {
      const margin = marginX(l.source)
      y = gutterY(to - 1, l.source)
      points.push({ x: margin, y: gutterY(from, l.source) }, { x: margin, y })
    }
    const up = upX(to, l.target)
    points.push({ x: up, y }, { x: up, y: t.y + t.height / 2 })
    routes.set(linkKey(l.source, l.target), points)
  }

  const left = Math.min(0, ...[...routes.values()].flat().map((p) => p.x))
  const right = Math.max(...[...boxes.values()].map((b) => b.x + b.width), ...[...routes.values()].flat().map((p) => p.x))
  const bottom = Math.max(...[...boxes.values()].map((b) => b.y + b.height))
  return { boxes, routes, bounds: { x: left, y: 0, width: right - left, height: bottom } }
}

/** Numbers the members of each group in the order they are first asked for. */
class Slots {
  private groups = new Map<string, Map<string, number>>()

  of(group: string, member: string): number {
    let slots = this.groups.get(group)
    if (!slots) this.groups.set(group, (slots = new Map()))
    if (!slots.has(member)) slots.set(member, slots.size)
    return slots.get(member)!
  }

  count(group: string): number {
    return this.groups.get(group)?.size ?? 0
  }
}

function columnOfIn(cols: Span[], box: Box): Span {
  const found = columnOf(cols, box)
  return cols.find((c) => c.left === found.left && c.right === found.right) ?? cols[0]
}

/** `x` kept inside the gap from `left` to `right` (lines beyond its room run together). */
function inGap(x: number, left: number, right: number): number {
  return Math.min(Math.max(x, left + 2), right - 2)
}
