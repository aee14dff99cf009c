import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../api/types'
import { restartBody, sameJson } from './restartBody'

const ran: JsonValue = { name: 'Search', steps: [{ id: 'rerank_all', tool: 'rerank', inputs: { topK: 5 } }] }

describe('restartBody', () => {
  it('sends only the step when nothing changed since the run', () => {
    const definition = JSON.parse(JSON.stringify(ran)) as JsonValue
    expect(restartBody({ from: 'rerank_all', definition, ran, inputs: { query: 'auth', limit: 3 }, ranWith: { limit: 3, query: 'auth' } })).toEqual({
      from: 'rerank_all',
    })
  })

  it('sends the definition edited since, and the inputs changed in the run form', () => {
    const edited: JsonValue = { name: 'Search', steps: [{ id: 'rerank_all', tool: 'rerank', inputs: { topK: 3 } }] }
    expect(restartBody({ from: 'rerank_all', definition: edited, ran, inputs: { query: 'auth', limit: 6 }, ranWith: { query: 'auth', limit: 3 } })).toEqual({
      from: 'rerank_all',
      definition: edited,
      inputs: { limit: 6 },
    })
  })

  it('sends the definition and every input when what the run ran is not known', () => {
    expect(restartBody({ from: 'merge', definition: ran, inputs: { query: 'auth' } })).toEqual({ from: 'merge', definition: ran, inputs: { query: 'auth' } })
  })
})

describe('sameJson', () => {
  it('ignores the order of keys, not of lists', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true)
    expect(sameJson([1, 2], [2, 1])).toBe(false)
    expect(sameJson('3', 3)).toBe(false)
    expect(sameJson(undefined, null)).toBe(false)
  })
})
