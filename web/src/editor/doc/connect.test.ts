import { describe, expect, it } from 'vitest'
import type { Workflow } from '../../api/types'
import { router, searchDoc, tools as catalog } from '../test/fixtures'

const tools = { ...catalog, router }
import { connect, findCycle, refusal, type Connection, type Link } from './connect'
import { findStep } from './model'

const links: Link[] = [
  { source: '__inputs', target: 'a' },
  { source: 'a', target: 'b' },
  { source: 'a', target: 'm' },
  { source: 'b', target: 'm' },
  { source: 'a', target: 't' },
  { source: 'm', target: '__output' },
]

function ok(doc: Workflow, c: Connection): Workflow {
  const result = connect(doc, c, tools, links)
  if ('error' in result) throw new Error(result.error)
  return result.doc
}

describe('connect', () => {
  it('writes a step output reference into a chosen input', () => {
    const doc = searchDoc()
    const next = ok(doc, { source: 'a', path: 'a.output.results', target: 't', into: { kind: 'input', name: 'extra' } })
    expect(findStep(next, 't')?.inputs.extra).toBe('{{ a.output.results }}')
    expect(next.steps[0]).toBe(doc.steps[0])
  })

  it('writes a workflow input reference from the inputs node', () => {
    const next = ok(searchDoc(), { source: '__inputs', path: 'inputs.query', target: 'm', into: { kind: 'input', name: 'dedup_field' } })
    expect(findStep(next, 'm')?.inputs.dedup_field).toBe('{{ inputs.query }}')
  })

  it('appends to an array input such as merge arrays, once', () => {
    const doc = searchDoc()
    doc.steps.push({ id: 'c', tool: 'query', inputs: {} })
    const next = ok(doc, { source: 'c', path: 'c.output.results', target: 'm', into: { kind: 'input', name: 'arrays' } })
    expect(findStep(next, 'm')?.inputs.arrays).toEqual(['{{ a.output.results }}', '{{ b.output.results }}', '{{ c.output.results }}'])
    const again = ok(next, { source: 'c', path: 'c.output.results', target: 'm', into: { kind: 'input', name: 'arrays' } })
    expect(findStep(again, 'm')?.inputs.arrays).toHaveLength(3)
  })

  it('starts a list for a list-of-arrays input that is empty', () => {
    const doc: Workflow = {
      name: 'w',
      steps: [
        { id: 'a', tool: 'query', inputs: {} },
        { id: 'm', tool: 'merge', inputs: {} },
      ],
    }
    const next = ok(doc, { source: 'a', path: 'a.output.results', target: 'm', into: { kind: 'input', name: 'arrays' } })
    expect(findStep(next, 'm')?.inputs.arrays).toEqual(['{{ a.output.results }}'])
  })

  it('replaces a plain value, and adds to the end of long text', () => {
    const doc: Workflow = {
      name: 'w',
      steps: [
        { id: 'a', tool: 'query', inputs: {} },
        { id: 'f', tool: 'filter', inputs: { array: '{{ old.output.x }}' } },
        { id: 't', tool: 'template', inputs: { text: 'Results:' } },
      ],
    }
    let next = ok(doc, { source: 'a', path: 'a.output.results', target: 'f', into: { kind: 'input', name: 'array' } })
    expect(findStep(next, 'f')?.inputs.array).toBe('{{ a.output.results }}')
    next = ok(next, { source: 'a', path: 'a.output.results', target: 't', into: { kind: 'input', name: 'text' } })
    expect(findStep(next, 't')?.inputs.text).toBe('Results: {{ a.output.results }}')
  })

  it('writes then/else branches into the conditional, as step ids', () => {
    const doc: Workflow = {
      name: 'w',
      steps: [
        { id: 'c', tool: 'conditional', inputs: { condition: 'true', then: [] } },
        { id: 'x', tool: 'template', inputs: {} },
      ],
    }
    let next = ok(doc, { source: 'c', target: 'x', into: { kind: 'branch', branch: 'then' } })
    expect(findStep(next, 'c')?.inputs.then).toEqual(['x'])
    next = ok(next, { source: 'c', target: 'x', into: { kind: 'branch', branch: 'else' } })
    expect(findStep(next, 'c')?.inputs.else).toEqual(['x'])
  })

  it("adds a step to a router's route, moving it out of the router's other routes", () => {
    const doc: Workflow = {
      name: 'w',
      steps: [
        {
          id: 'r',
          tool: 'router',
          inputs: {
            input: 'x',
            routes: [
              { id: 'billing', description: 'money', steps: ['x'] },
              { id: 'technical', description: 'bugs', steps: [], weight: 1 },
            ],
          },
        },
        { id: 'x', tool: 'template', inputs: {} },
      ],
    }
    const next = ok(doc, { source: 'r', target: 'x', into: { kind: 'route', name: 'routes', route: 'technical', index: 1 } })
    expect(findStep(next, 'r')?.inputs.routes).toEqual([
      { id: 'billing', description: 'money', steps: [] },
      { id: 'technical', description: 'bugs', steps: ['x'], weight: 1 },
    ])
    expect(connect(doc, { source: 'r', target: 'x', into: { kind: 'route', name: 'routes', route: 'nope', index: 0 } }, tools, links)).toEqual({
      error: 'The router r has no route "nope".',
    })
  })

  it('adds dependsOn once', () => {
    let next = ok(searchDoc(), { source: 'a', target: 't', into: { kind: 'dependsOn' } })
    next = ok(next, { source: 'a', target: 't', into: { kind: 'dependsOn' } })
    expect(findStep(next, 't')?.dependsOn).toEqual(['a'])
  })

  it('adds a field to the output mapping, creating it when absent', () => {
    const next = ok(searchDoc(), { source: 't', path: 't.output.text', target: '__output', into: { kind: 'output', field: 'summary' } })
    expect(next.output).toEqual({ results: '{{ m.output.results }}', first: '{{ a.output.results }}', summary: '{{ t.output.text }}' })
    const fresh = ok(
      { name: 'w', steps: [{ id: 'a', tool: 'query', inputs: {} }] },
      { source: 'a', path: 'a.output', target: '__output', into: { kind: 'output', field: 'a' } },
    )
    expect(fresh.output).toEqual({ a: '{{ a.output }}' })
  })

  it('refuses a single-value output mapping with a reason', () => {
    const doc = { ...searchDoc(), output: '{{ m.output }}' }
    const result = connect(doc, { source: 'a', path: 'a.output', target: '__output', into: { kind: 'output', field: 'x' } }, tools, links)
    expect(result).toEqual({ error: expect.stringMatching(/single value/) })
  })

  it('refuses a connection that closes a cycle and names it', () => {
    const result = connect(searchDoc(), { source: 'm', path: 'm.output.results', target: 'a', into: { kind: 'input', name: 'query' } }, tools, links)
    expect(result).toEqual({ error: 'That connection would create a cycle: m → a → m' })
    const self = connect(searchDoc(), { source: 'a', path: 'a.output', target: 'a', into: { kind: 'input', name: 'query' } }, tools, links)
    expect(self).toEqual({ error: 'A step cannot be connected to itself.' })
  })

  it('refuses unknown steps', () => {
    expect(connect(searchDoc(), { source: 'zz', path: 'zz.output', target: 'a', into: { kind: 'input', name: 'q' } }, tools, links)).toEqual({
      error: 'There is no step "zz".',
    })
  })
})

describe('findCycle', () => {
  it('finds the shortest way back, through every kind of link', () => {
    const chain: Link[] = [
      { source: 'a', target: 'b' },
      { source: 'b', target: 'c' },
      { source: 'c', target: 'd' },
      { source: 'a', target: 'd' },
    ]
    expect(findCycle(chain, 'd', 'a')).toEqual(['d', 'a', 'd'])
    expect(findCycle(chain, 'c', 'a')).toEqual(['c', 'a', 'b', 'c'])
    expect(findCycle(chain, 'a', 'd')).toBeUndefined()
  })

  it('ignores the inputs and output nodes', () => {
    expect(findCycle([{ source: '__inputs', target: 'a' }], 'a', '__inputs')).toBeUndefined()
  })
})

describe('refusal', () => {
  const chain: Link[] = [
    { source: '__inputs', target: 'a' },
    { source: 'a', target: 'b' },
    { source: 'b', target: 'c' },
    { source: 'c', target: '__output' },
  ]

  it('names the cycle a connection would close, before anything is picked', () => {
    expect(refusal(chain, 'c', 'a')).toBe('That connection would create a cycle: c → a → b → c')
    expect(refusal(chain, 'b', 'b')).toBe('A step cannot be connected to itself.')
  })

  it('refuses connecting into the inputs node or out of the output node', () => {
    expect(refusal(chain, 'a', '__inputs')).toBe('Workflow inputs come from the run, not from a step: connect from Inputs instead.')
    expect(refusal(chain, '__output', 'a')).toBe('The output is the end of the workflow: nothing reads from it.')
  })

  it('offers every other connection', () => {
    expect(refusal(chain, 'a', 'c')).toBeUndefined()
    expect(refusal(chain, '__inputs', 'c')).toBeUndefined()
    expect(refusal(chain, 'a', '__output')).toBeUndefined()
  })
})
