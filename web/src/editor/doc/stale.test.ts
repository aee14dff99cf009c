import { describe, expect, it } from 'vitest'
import { searchDoc } from '../test/fixtures'
import { changedSteps, downstream } from './stale'
import { updateStep } from './model'

describe('stale steps', () => {
  it('lists the steps whose object changed, and new ones', () => {
    const doc = searchDoc()
    const edited = updateStep(doc, 'b', (s) => ({ ...s, name: 'B' }))
    expect(changedSteps(doc, edited)).toEqual(['b'])
    expect(changedSteps(doc, { ...doc, steps: [...doc.steps, { id: 'n', tool: 'q', inputs: {} }] })).toEqual(['n'])
    expect(changedSteps(doc, { ...doc, name: 'renamed' })).toEqual([])
  })

  it('follows links downstream', () => {
    const links = [
      { source: 'a', target: 'b' },
      { source: 'b', target: 'c' },
      { source: 'x', target: 'y' },
      { source: 'c', target: 'a' },
    ]
    expect([...downstream(['b'], links)].sort()).toEqual(['a', 'b', 'c'])
    expect([...downstream(['y'], links)]).toEqual(['y'])
  })
})
