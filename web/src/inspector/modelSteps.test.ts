import { describe, expect, it } from 'vitest'
import { scoresOf } from './scores'
import { agentOf, routeOf } from './modelSteps'

describe('agentOf', () => {
  it('reads the tool calls as the Chat panel shows them, with the notice', () => {
    const run = agentOf({
      content: 'Keys rotate every 90 days.',
      toolCalls: [
        { name: 'query', arguments: { query: 'key rotation' }, ok: true, summary: '5 results', durationMs: 120 },
        { name: 'rag-chat', arguments: {}, ok: false, summary: 'timed out', durationMs: 3000 },
      ],
      iterations: 3,
      model: 'local',
      notice: 'Stopped at maxIterations (3)',
    })
    expect(run?.iterations).toBe(3)
    expect(run?.notice).toBe('Stopped at maxIterations (3)')
    expect(run?.calls.map((c) => [c.label, c.call?.ok, c.call?.summary, c.call?.durationMs])).toEqual([
      ['query', true, '5 results', 120],
      ['rag-chat', false, 'timed out', 3000],
    ])
    expect(run?.calls[0].arguments).toEqual({ query: 'key rotation' })
  })

  it('is undefined for other outputs', () => {
    expect(agentOf({ content: 'x' })).toBeUndefined()
    expect(agentOf({ toolCalls: 'no', iterations: 1 })).toBeUndefined()
  })
})

describe('routeOf', () => {
  it('reads the chosen route, why, how, and the similarity per route best first', () => {
    expect(
      routeOf({ route: 'billing', reason: 'closest description', method: 'similarity', scores: { technical: 0.41, billing: 0.83 }, model: 'local' }),
    ).toEqual({
      route: 'billing',
      reason: 'closest description',
      method: 'similarity',
      scores: [
        ['billing', 0.83],
        ['technical', 0.41],
      ],
      model: 'local',
    })
    expect(routeOf({ route: 'a', method: 'llm' })?.scores).toEqual([])
  })

  it('is undefined for other outputs, and an evaluator is not read as a router', () => {
    expect(routeOf({ route: 'a' })).toBeUndefined()
    expect(routeOf({ scores: { a: 1 }, reasoning: 'x' })).toBeUndefined()
    expect(scoresOf({ scores: { a: 4 }, reasoning: 'x' })?.scores).toEqual([['a', 4]])
  })
})
