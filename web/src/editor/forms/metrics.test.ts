import { describe, expect, it } from 'vitest'
import { hasMetricProblems, metricProblems, metricRows, metricsOf, newMetric, type MetricRow } from './metrics'

const row = (name: string, min = '1', max = '5'): MetricRow => ({ name, description: '', min, max, extra: {}, rangeExtra: {} })

describe('metrics', () => {
  it('reads metrics as rows and writes them back, keeping keys the editor does not know', () => {
    const value = [
      { name: 'accuracy', description: 'Facts match the context', range: { min: 1, max: 5 }, weight: 2 },
      { name: 'grounded', range: { min: 0, max: 1, step: 0.5 } },
      { name: 'plain' },
    ]
    const rows = metricRows(value)
    expect(rows[0]).toEqual({ name: 'accuracy', description: 'Facts match the context', min: '1', max: '5', extra: { weight: 2 }, rangeExtra: {} })
    expect(rows[1]).toMatchObject({ min: '0', max: '1', rangeExtra: { step: 0.5 } })
    expect(rows[2]).toMatchObject({ min: '', max: '' })
    expect(metricsOf(rows)).toEqual([
      { name: 'accuracy', description: 'Facts match the context', range: { min: 1, max: 5 }, weight: 2 },
      { name: 'grounded', range: { step: 0.5, min: 0, max: 1 } },
      { name: 'plain' },
    ])
  })

  it('writes bounds as numbers, and leaves out one that is not a number yet', () => {
    expect(metricsOf([row('a', '0.5', '10')])).toEqual([{ name: 'a', range: { min: 0.5, max: 10 } }])
    expect(metricsOf([row('a', '-', '10')])).toEqual([{ name: 'a', range: { max: 10 } }])
  })

  it('adds a metric with the default range 1 to 5 and a free name', () => {
    expect(newMetric([])).toMatchObject({ name: 'quality', min: '1', max: '5' })
    expect(newMetric([row('quality'), row('metric_1')]).name).toBe('metric_2')
  })

  it('flags min above max, counting an empty bound as its default', () => {
    expect(metricProblems([row('a', '5', '1')])[0]).toEqual({ min: 'min 5 is more than max 1' })
    expect(metricProblems([row('a', '7', '')])[0]).toEqual({ min: 'min 7 is more than max 5' })
    expect(metricProblems([row('a', '', '0')])[0]).toEqual({ min: 'min 1 is more than max 0' })
    expect(metricProblems([row('a', '3', '3')])[0]).toEqual({})
  })

  it('flags duplicate, empty and quoted names, and bounds that are not numbers', () => {
    const problems = metricProblems([row('accuracy'), row(' accuracy '), row(''), row('say "hi"'), row('b', 'x', 'y')])
    expect(problems.map((p) => p.name)).toEqual([
      '"accuracy" is listed twice',
      '"accuracy" is listed twice',
      'A metric needs a name',
      'No quotes, backslashes or control characters',
      undefined,
    ])
    expect(problems[4]).toEqual({ min: 'Must be a number', max: 'Must be a number' })
    expect(hasMetricProblems(problems)).toBe(true)
    expect(hasMetricProblems(metricProblems([row('a'), row('b', '0', '1')]))).toBe(false)
  })
})
