import { describe, expect, it } from 'vitest'
import type { Workflow } from '../../api/types'
import { router, searchDoc, tools as catalog } from '../test/fixtures'

const tools = { ...catalog, router }
import { outputFieldName, sourceFields, targetOptions } from './connectOptions'

describe('connect menu options', () => {
  it('offers a step’s declared outputs and its whole output', () => {
    expect(sourceFields(searchDoc(), 'a', tools).map((f) => f.path)).toEqual(['a.output.results', 'a.output.resultCount', 'a.output'])
  })

  it('offers the workflow inputs from the inputs node', () => {
    expect(sourceFields(searchDoc(), '__inputs', tools)).toEqual([{ path: 'inputs.query', label: 'query', detail: 'string' }])
  })

  it('offers results and count of a forEach step', () => {
    const doc: Workflow = { name: 'w', steps: [{ id: 'e', tool: 'query', inputs: {}, forEach: '{{ inputs.list }}' }] }
    expect(sourceFields(doc, 'e', tools).map((f) => f.label)).toEqual(['results', 'count', 'output'])
  })

  it('offers the target’s schema inputs, required ones marked, and dependsOn', () => {
    const options = targetOptions(searchDoc(), 'a', 'm', tools)
    expect(options.map((o) => o.label)).toEqual(['arrays', 'dedup', 'run after (dependsOn)'])
    expect(options[0]).toMatchObject({ into: { kind: 'input', name: 'arrays' }, required: true })
  })

  it('offers branches when the source is a conditional, never then/else as data inputs', () => {
    const doc: Workflow = {
      name: 'w',
      steps: [
        { id: 'c', tool: 'conditional', inputs: {} },
        { id: 'd', tool: 'conditional', inputs: {} },
      ],
    }
    const labels = targetOptions(doc, 'c', 'd', tools).map((o) => o.label)
    expect(labels).toEqual(['then branch', 'else branch', 'condition', 'run after (dependsOn)'])
  })

  it('offers a router’s routes, saying when the step moves from another, never routes as a data input', () => {
    const routes = [
      { id: 'billing', description: '', steps: ['x'] },
      { id: 'technical', description: '', steps: [] },
      { id: 'sales', description: '', steps: [] },
    ]
    const doc: Workflow = {
      name: 'w',
      steps: [
        { id: 'r', tool: 'router', inputs: { input: 'q', routes } },
        { id: 'x', tool: 'template', inputs: {} },
        { id: 'r2', tool: 'router', inputs: { input: 'q', routes: [] } },
      ],
    }
    const options = targetOptions(doc, 'r', 'x', tools)
    expect(options.map((o) => o.label)).toEqual(['route technical', 'route sales', 'text', 'run after (dependsOn)'])
    expect(options[0]).toMatchObject({
      into: { kind: 'route', name: 'routes', route: 'technical', index: 1 },
      detail: 'run x when r chooses technical (moves it from route billing)',
    })
    expect(targetOptions(doc, 'x', 'r2', tools).map((o) => o.label)).toEqual(['input', 'fallback', 'run after (dependsOn)'])
  })

  it('offers the output mapping’s fields, and names a new one uniquely', () => {
    expect(targetOptions(searchDoc(), 'a', '__output', tools).map((o) => o.label)).toEqual(['results', 'first'])
    expect(outputFieldName(searchDoc(), 'm.output.results')).toBe('results_2')
    expect(outputFieldName(searchDoc(), 'm.output')).toBe('m')
  })

  it('falls back to the inputs a step of an unknown tool has', () => {
    const doc: Workflow = { name: 'w', steps: [{ id: 'x', tool: 'mystery', inputs: { foo: 1 } }] }
    expect(targetOptions(doc, '__inputs', 'x', tools).map((o) => o.label)).toEqual(['foo'])
  })
})
