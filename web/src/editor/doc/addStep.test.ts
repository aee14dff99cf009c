import { describe, expect, it } from 'vitest'
import { tools, searchDoc } from '../test/fixtures'
import { toolView } from '../../test/toolView'
import { addStep, initialInputs, isListInput } from './addStep'

describe('addStep', () => {
  it('appends a step with a readable unique id and the tool name', () => {
    const doc = searchDoc()
    const first = addStep(doc, 'query', tools.query)
    expect(first.id).toBe('query_1')
    const second = addStep(first.doc, 'query', tools.query)
    expect(second.id).toBe('query_2')
    expect(second.doc.steps.map((s) => s.id)).toEqual(['a', 'b', 'm', 't', 'query_1', 'query_2'])
    expect(doc.steps).toHaveLength(4)
    expect(second.doc.steps[0]).toBe(doc.steps[0])
  })

  it('fills required inputs with their declared defaults and leaves optional ones out', () => {
    expect(initialInputs(tools.chunk)).toEqual({ strategy: 'recursive' })
    expect(initialInputs(tools.query)).toEqual({})
  })

  it('starts step-id lists and lists of arrays empty, so connections append to them', () => {
    expect(initialInputs(tools.conditional)).toEqual({ then: [] })
    expect(initialInputs(tools.merge)).toEqual({ arrays: [] })
    expect(initialInputs(tools.filter)).toEqual({})
    expect(isListInput({ type: 'array', items: {} })).toBe(false)
  })

  it('starts a router with two routes and an evaluator with one metric in the default range', () => {
    const router = toolView('router', {
      inputSchema: { type: 'object', properties: { input: { type: 'string' }, routes: { type: 'array', format: 'routes' } }, required: ['input', 'routes'] },
    })
    const evaluator = toolView('evaluator', {
      inputSchema: {
        type: 'object',
        properties: { content: { type: 'string' }, metrics: { type: 'array', format: 'metrics' } },
        required: ['content', 'metrics'],
      },
    })
    expect(initialInputs(router)).toEqual({
      routes: [
        { id: 'route_1', description: '', steps: [] },
        { id: 'route_2', description: '', steps: [] },
      ],
    })
    expect(initialInputs(evaluator)).toEqual({ metrics: [{ name: 'quality', range: { min: 1, max: 5 } }] })
  })

  it('adds a step of an unknown tool with no inputs', () => {
    const { doc, id } = addStep(searchDoc(), 'mystery', undefined)
    expect(doc.steps.at(-1)).toEqual({ id, tool: 'mystery', inputs: {} })
  })

  it('does not share default values between steps', () => {
    const listy = {
      ...tools.chunk,
      inputSchema: { type: 'object' as const, properties: { list: { type: 'array' as const, default: [1] } }, required: ['list'] },
    }
    const one = initialInputs(listy)
    expect(one.list).toEqual([1])
    expect(one.list).not.toBe(listy.inputSchema.properties.list.default)
  })
})
