// Where the editor store puts nodes: those a file does not place, pasted and duplicated steps,
// a dropped tool — never on another node — and the layout it remakes for a narrower canvas.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { GraphEdge, Workflow } from '../../api/types'
import { boxesOverlap } from '../../canvas/geometry'
import { fitView } from '../../canvas/legibleFit'
import { noteNodeId } from '../doc/model'
import { occupiedBoxes } from '../doc/placement'
import { fakeEditorApi, planOf } from '../test/fakeEditorApi'
import { searchDoc, tools } from '../test/fixtures'
import { createEditorStore, DEFAULT_DEBOUNCE_MS } from './createEditorStore'

const source = { key: 'file:two.vai-workflow.json', id: 'file:two.vai-workflow.json', label: 'Two searches', readOnly: false, version: 'v1' }

/** The edges the server plans for searchDoc (its references and its dependsOn). */
const planned: GraphEdge[] = [
  ['__inputs', 'a'],
  ['__inputs', 'b'],
  ['a', 'b'],
  ['a', 'm'],
  ['b', 'm'],
  ['a', 't'],
  ['m', '__output'],
  ['a', '__output'],
].map(([source, target]) => ({ id: `${source}->${target}:x`, source, target, kind: 'reference', label: source, field: 'x' }))

function setup(doc: Workflow = searchDoc()) {
  const api = fakeEditorApi()
  api.plan.mockImplementation(async (d: Workflow) => planOf(d, planned))
  const graph = { ...planOf(doc, planned).graph! }
  const store = createEditorStore({ doc, source, graph }, { api, tools: () => tools, storage: null })
  return { api, s: () => store.getState() }
}

/** Pairs of nodes (and notes) drawn on top of each other. */
function overlaps(s: ReturnType<ReturnType<typeof setup>['s']>): string[] {
  const boxes = occupiedBoxes(s.nodes, s.positions, s.notes)
  const ids = [...s.nodes.filter((n) => s.positions[n.id]).map((n) => n.id), ...s.notes.map((n) => noteNodeId(n.id))]
  const out: string[] = []
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (boxesOverlap(boxes[i], boxes[j])) out.push(`${ids[i]} / ${ids[j]}`)
  return out
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('editor store: placing nodes', () => {
  it('keeps the nodes a file places, and puts the others in free space beside them', () => {
    const doc = { ...searchDoc(), ui: { positions: { m: { x: 0, y: 0 }, t: { x: 204, y: 30 } } } }
    const { s } = setup(doc)
    expect(s().positions.m).toEqual({ x: 0, y: 0 })
    expect(s().positions.t).toEqual({ x: 204, y: 30 })
    expect(Object.keys(s().positions).sort()).toEqual(['__inputs', '__output', 'a', 'b', 'm', 't'])
    expect(overlaps(s())).toEqual([])
    expect(s().dirty).toBe(false)
  })

  it('pastes steps near the pointer but off the nodes there', async () => {
    const { s } = setup()
    s().select(['a', 'b'])
    const over = s().positions.m
    await s().paste(s().copySelection()!, { x: over.x + 10, y: over.y + 10 })
    expect(s().selection).toEqual(['a_1', 'b_1'])
    expect(overlaps(s())).toEqual([])
    // Near it: within a few node sizes.
    expect(Math.hypot(s().positions.a_1.x - over.x, s().positions.a_1.y - over.y)).toBeLessThan(500)
  })

  it('duplicates beside the original, again and again, never on a node', async () => {
    const { s } = setup()
    s().select(['m'])
    for (let i = 0; i < 3; i++) await s().duplicateSelection()
    expect(s().doc.steps).toHaveLength(7)
    expect(overlaps(s())).toEqual([])
  })

  it('moves a tool dropped on a node to the nearest free spot', () => {
    const { s } = setup()
    const id = s().addStep('template', s().positions.a)
    expect(s().positions[id]).not.toEqual(s().positions.a)
    expect(overlaps(s())).toEqual([])
  })

  it('remakes the layout for a narrower canvas when the document places no node, as no edit', async () => {
    const { s } = setup()
    await vi.advanceTimersByTimeAsync(DEFAULT_DEBOUNCE_MS + 10)
    const before = s().positions
    // Wide enough for one row: nothing to do.
    expect(s().fitLayoutTo(fitView(4000, 2000))).toBe(false)
    // Four layers side by side do not fit 500 px at the legible zoom; wrapped onto rows, they do.
    expect(s().fitLayoutTo(fitView(500, 900))).toBe(true)
    expect(s().positions).not.toEqual(before)
    expect(s().dirty).toBe(false)
    expect(s().history.past).toHaveLength(0)
    expect(overlaps(s())).toEqual([])
  })

  it('leaves a layout the document keeps', () => {
    const { s } = setup({ ...searchDoc(), ui: { positions: { a: { x: 0, y: 0 } } } })
    expect(s().fitLayoutTo(fitView(300, 900))).toBe(false)
  })
})
