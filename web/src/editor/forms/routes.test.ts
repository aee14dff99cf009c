import { describe, expect, it } from 'vitest'
import { hasRouteProblems, newRoute, routeProblems, routeRows, routesOf, type RouteRow } from './routes'

const row = (id: string, steps: string[] = [], description = ''): RouteRow => ({ id, description, steps, extra: {} })

describe('routes', () => {
  it('reads routes as rows and writes them back, keeping keys the editor does not know', () => {
    const value = [
      { id: 'billing', description: 'Invoices, refunds', steps: ['refund'], weight: 2 },
      { id: 'technical', steps: ['debug', 7] },
    ]
    const rows = routeRows(value)
    expect(rows).toEqual([
      { id: 'billing', description: 'Invoices, refunds', steps: ['refund'], extra: { weight: 2 } },
      { id: 'technical', description: '', steps: ['debug'], extra: {} },
    ])
    expect(routesOf(rows)).toEqual([
      { id: 'billing', description: 'Invoices, refunds', steps: ['refund'], weight: 2 },
      { id: 'technical', description: '', steps: ['debug'] },
    ])
    expect(routeRows('{{ inputs.routes }}')).toEqual([])
    expect(routeRows([null])).toEqual([row('')])
  })

  it('names a new route with the first free route_<n>', () => {
    expect(newRoute([]).id).toBe('route_1')
    expect(newRoute([row('route_1'), row('route_3')]).id).toBe('route_2')
  })

  it('flags ids that are empty, not id-shaped or taken twice', () => {
    const problems = routeProblems([row(''), row('2fast'), row('billing'), row('billing'), row('ok')], [])
    expect(problems.map((p) => p.id)).toEqual([
      'A route needs an id',
      'Letters, digits and _, not starting with a digit',
      'Another route is also called billing',
      'Another route is also called billing',
      undefined,
    ])
  })

  it('flags a step in two routes in both, naming the other route', () => {
    const problems = routeProblems(
      [row('billing', ['refund', 'invoice']), row('technical', ['debug', 'refund'])],
      ['pick', 'refund', 'invoice', 'debug'],
      'pick',
    )
    expect(problems[0].steps).toEqual({ refund: 'refund is also in route technical: a step may be in one route only' })
    expect(problems[1].steps).toEqual({ refund: 'refund is also in route billing: a step may be in one route only' })
    expect(hasRouteProblems(problems)).toBe(true)
  })

  it('flags steps that do not exist and the router itself', () => {
    const problems = routeProblems([row('a', ['pick', 'gone', 'refund'])], ['pick', 'refund'], 'pick')
    expect(problems[0].steps).toEqual({ pick: 'A router cannot route to itself', gone: 'There is no step gone' })
  })

  it('finds nothing wrong with distinct routes over existing steps', () => {
    const problems = routeProblems([row('a', ['x']), row('b', ['y']), row('c')], ['x', 'y'])
    expect(hasRouteProblems(problems)).toBe(false)
  })
})
