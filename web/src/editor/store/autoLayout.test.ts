import { describe, expect, it } from 'vitest'
import type { GraphEdge, GraphNode } from '../../api/types'
import { linkKey } from '../../canvas/layout'
import { stepNode } from '../doc/view'
import { autoLayout, liveRoutes, positionsOfLayout, renameLayout } from './autoLayout'

const step = (id: string): GraphNode => stepNode({ id, tool: 'template', inputs: { text: id } }, undefined)
const edge = (source: string, target: string): GraphEdge => ({
  id: `${source}->${target}`,
  source,
  target,
  kind: 'reference',
  label: source,
  field: 'inputs.text',
})

// a → b → c, and a → c passing b's column.
const nodes = [step('a'), step('b'), step('c')]
const edges = [edge('a', 'b'), edge('b', 'c'), edge('a', 'c')]

describe('the builder keeps layout routes while they hold', () => {
  const layout = autoLayout(nodes, edges)
  const at = positionsOfLayout(layout)

  it('keeps every route with the nodes where the layout put them, as the same object', () => {
    const routes = liveRoutes(layout, nodes, at)
    expect(Object.keys(routes).sort()).toEqual([linkKey('a', 'b'), linkKey('a', 'c'), linkKey('b', 'c')].sort())
    expect(liveRoutes(layout, nodes, { ...at }, routes)).toBe(routes)
  })

  it("drops the routes of a moved node's edges", () => {
    const routes = liveRoutes(layout, nodes, { ...at, b: { x: at.b.x, y: at.b.y + 300 } })
    expect(Object.keys(routes)).toEqual([linkKey('a', 'c')])
  })

  it('drops a route a moved node now covers', () => {
    // c moved onto the lane a → c passes b's column on: that lane is above or below b.
    const lane = layout.routes[linkKey('a', 'c')].points.find((p) => p.x >= at.b.x && p.x <= at.b.x + 188)!
    const extra = step('d')
    const routes = liveRoutes(layout, [...nodes, extra], { ...at, d: { x: at.b.x, y: lane.y - 40 } })
    expect(routes[linkKey('a', 'c')]).toBeUndefined()
    expect(routes[linkKey('a', 'b')]).toBeDefined()
  })

  it('follows a rename', () => {
    const renamed = renameLayout(layout, { b: 'bee' })
    expect(renamed.boxes.bee).toEqual(layout.boxes.b)
    expect(renamed.routes[linkKey('a', 'bee')]).toBe(layout.routes[linkKey('a', 'b')])
    const nodesAfter = [step('a'), step('bee'), step('c')]
    const atAfter = { a: at.a, bee: at.b, c: at.c }
    expect(Object.keys(liveRoutes(renamed, nodesAfter, atAfter))).toHaveLength(3)
  })
})
