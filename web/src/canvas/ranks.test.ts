import { describe, expect, it } from 'vitest'
import { longestPathRanks } from './ranks'

const link = (source: string, target: string) => ({ source, target })

describe('longestPathRanks', () => {
  it('ranks each node one right of its furthest predecessor', () => {
    const { rank } = longestPathRanks(['r', 'a', 'b', 'c'], [link('r', 'a'), link('a', 'b'), link('r', 'c'), link('b', 'c')])
    expect(Object.fromEntries(rank)).toEqual({ r: 0, a: 1, b: 2, c: 3 })
  })

  it('hangs parentless nodes off the root', () => {
    const { rank, links } = longestPathRanks(['__inputs', 'a', 'b'], [link('a', 'b')], '__inputs')
    expect(links).toContainEqual(link('__inputs', 'a'))
    expect(Object.fromEntries(rank)).toEqual({ __inputs: 0, a: 1, b: 2 })
  })

  it('breaks cycles and ignores self links, duplicates and unknown nodes', () => {
    const { rank, links } = longestPathRanks(['a', 'b', 'c'], [link('a', 'b'), link('b', 'c'), link('c', 'a'), link('a', 'a'), link('a', 'b'), link('a', 'zz')])
    expect(links).toEqual([link('a', 'b'), link('b', 'c')])
    expect(Object.fromEntries(rank)).toEqual({ a: 0, b: 1, c: 2 })
  })
})
