import { describe, expect, it } from 'vitest'
import type { ChatSource } from '../api/types'
import { passageFor, passagesOf } from './passages'

const sources: ChatSource[] = [
  { index: 1, title: 'Key rotation', text: '…', passages: ['Rotate a key with POST /keys/rotate.', 'The old key stops working after 24 hours.'] },
  { index: 2, title: 'Authentication', text: '…', passages: ['Send the key in the Authorization header.'] },
  { index: 3, title: 'Errors', text: '…' },
]
const answer = 'Send the key in the Authorization header. [2] Rotate a key with POST /keys/rotate. [1] The old key stops working after 24 hours. [1]'

describe('passagesOf', () => {
  it('lists every source’s passages with its number and title, in the answer’s order', () => {
    expect(passagesOf(sources, answer).map((p) => [p.key, p.n, p.title])).toEqual([
      ['2:0', 2, 'Authentication'],
      ['1:0', 1, 'Key rotation'],
      ['1:1', 1, 'Key rotation'],
    ])
    // Passages the answer does not hold (yet: it is still arriving) come last, in source order.
    expect(passagesOf(sources, 'Rotate a key with POST /keys/rotate. [1]').map((p) => p.key)).toEqual(['1:0', '1:1', '2:0'])
    expect(passagesOf([sources[2]], answer)).toEqual([])
  })
})

describe('passageFor', () => {
  it('takes the nth citation of a source to its nth passage, and later ones to its last', () => {
    const passages = passagesOf(sources, answer)
    expect(passageFor(passages, 1, 0)?.key).toBe('1:0')
    expect(passageFor(passages, 1, 1)?.key).toBe('1:1')
    expect(passageFor(passages, 1, 5)?.key).toBe('1:1')
    expect(passageFor(passages, 2, 0)?.key).toBe('2:0')
    expect(passageFor(passages, 3, 0)).toBeUndefined()
  })
})
