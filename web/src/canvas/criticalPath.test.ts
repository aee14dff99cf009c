import { describe, expect, it } from 'vitest'
import type { GraphEdge, StepState } from '../api/types'
import { criticalPath, criticalPathOf, dependencies, linkKey, memoCriticalPath, spansOf, type Dependency } from './criticalPath'

function edge(source: string, target: string, kind: GraphEdge['kind'] = 'reference'): GraphEdge {
  return { id: `${source}-${target}`, source, target, kind, label: source, field: 'inputs.x' }
}

const done = (durationMs: number): StepState => ({ status: 'completed', durationMs })

/**
 *        ┌─ a (100) ─┐
 * inputs ┤           ├─ m (10) ─ out
 *        └─ b (300) ─┘
 *   c (50) after a, read by nobody
 */
const edges = [
  edge('__inputs', 'a', 'input'),
  edge('__inputs', 'b', 'input'),
  edge('a', 'm'),
  edge('b', 'm'),
  edge('a', 'c', 'depends_on'),
  edge('m', '__output', 'output'),
]

describe('dependencies', () => {
  it('keeps the edges between steps, whatever their kind, and drops the inputs and output', () => {
    const deps = dependencies([...edges, edge('r', 's', 'route'), edge('k', 'then1', 'then')])
    expect(deps.map((d) => linkKey(d.source, d.target))).toEqual(['a>m', 'b>m', 'a>c', 'r>s', 'k>then1'])
  })
})

describe('spansOf', () => {
  it('starts each step when the last step it waits for ends', () => {
    const spans = spansOf({ a: done(100), b: done(300), m: done(10), c: done(50) }, dependencies(edges))
    expect(spans).toEqual({
      a: { start: 0, end: 100 },
      b: { start: 0, end: 300 },
      m: { start: 300, end: 310 },
      c: { start: 100, end: 150 },
    })
  })

  it('gives steps still running or waiting no span, and skipped steps none of their own time', () => {
    const spans = spansOf({ a: done(100), b: { status: 'running' }, m: { status: 'pending' }, c: { status: 'skipped', reason: 'x' } }, dependencies(edges))
    expect(spans).toEqual({ a: { start: 0, end: 100 }, c: { start: 100, end: 100 } })
  })

  it('survives a cycle (a graph drawn with errors)', () => {
    const deps: Dependency[] = [
      { source: 'x', target: 'y' },
      { source: 'y', target: 'x' },
    ]
    expect(() => spansOf({ x: done(1), y: done(1) }, deps)).not.toThrow()
  })
})

describe('criticalPath', () => {
  it('walks back from the step that ended last through the predecessor that ended last', () => {
    const path = criticalPathOf({ a: done(100), b: done(300), m: done(10), c: done(50) }, edges)
    expect(path.steps).toEqual(['b', 'm'])
    expect([...path.links]).toEqual(['b>m'])
  })

  it('follows the other branch when it is the slower one', () => {
    const path = criticalPathOf({ a: done(400), b: done(300), m: done(10), c: done(50) }, edges)
    expect(path.steps).toEqual(['a', 'c'])
  })

  it('leaves skipped steps off the path but walks through them', () => {
    // k (200) → s (skipped) → t (5): t waited for k through s.
    const deps: Dependency[] = [
      { source: 'k', target: 's' },
      { source: 's', target: 't' },
      { source: 'j', target: 't' },
    ]
    const steps: Record<string, StepState> = { k: done(200), s: { status: 'skipped', reason: 'r' }, t: done(5), j: done(100) }
    const path = criticalPath(deps, spansOf(steps, deps), new Set(['s']))
    expect(path.steps).toEqual(['k', 't'])
    // k and t are not linked directly: no edge of the graph is highlighted between them.
    expect(path.links.size).toBe(0)
  })

  it('prefers, of two steps that ended together, the one that took longer', () => {
    const deps: Dependency[] = [{ source: 'p', target: 'q' }]
    const spans = { p: { start: 0, end: 50 }, q: { start: 50, end: 50 }, r: { start: 0, end: 50 } }
    expect(criticalPath(deps, spans).steps).toEqual(['p'])
  })

  it('is empty before anything has run', () => {
    expect(criticalPathOf({ a: { status: 'pending' } }, edges).steps).toEqual([])
  })

  it('is computed once per run state and graph', () => {
    const steps = { a: done(100), b: done(300), m: done(10) }
    const first = memoCriticalPath(steps, edges)
    expect(memoCriticalPath(steps, edges)).toBe(first)
    expect(memoCriticalPath({ ...steps }, edges)).not.toBe(first)
    expect(memoCriticalPath(undefined, edges).steps).toEqual([])
  })
})
