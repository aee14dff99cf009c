import { describe, expect, it } from 'vitest'
import { methodOf, proseOf } from './prose'

describe('proseOf', () => {
  it('takes text, answer, summary and report fields, and any string written as Markdown', () => {
    const prose = proseOf({ model: 'local', notes: '## Notes\n- one', summary: 'short', answer: 'It is **so**.', resultCount: 3, id: 'abc' })
    expect(prose.map((p) => p.key)).toEqual(['answer', 'summary', 'notes'])
    expect(proseOf('## A string output')[0]).toMatchObject({ key: '', text: '## A string output' })
    expect(proseOf({ results: [], resultCount: 0 })).toEqual([])
    expect(proseOf({ text: '   ' })).toEqual([])
    expect(proseOf([1, 2])).toEqual([])
  })

  it('looks [n] up in citations by their index', () => {
    const [text] = proseOf({
      text: 'Rotate it [2].',
      citations: [
        { index: 2, source: 'Key rotation', passage: 'Rotate a key with the rotate endpoint.' },
        { index: 1, source: 'Auth', passage: 'Send the key.' },
      ],
    })
    expect(text.cited(2)).toEqual({ n: 2, source: 'Key rotation', passage: 'Rotate a key with the rotate endpoint.' })
    expect(text.cited(3)).toBeUndefined()
  })

  it('looks [n] up as the n-th of sources or results without numbers, reading their title and text', () => {
    const [answer] = proseOf({
      answer: 'See [1] and [2].',
      sources: [
        { source: 'keys.md', text: 'Keys rotate.', score: 0.9 },
        { text: 'No source.', metadata: { title: 'From metadata' } },
      ],
    })
    expect(answer.cited(1)).toEqual({ n: 1, source: 'keys.md', passage: 'Keys rotate.' })
    expect(answer.cited(2)).toEqual({ n: 2, source: 'From metadata', passage: 'No source.' })
    expect(answer.cited(3)).toBeUndefined()
    expect(proseOf({ text: 'x [1]' })[0].cited(1)).toBeUndefined()
  })
})

describe('methodOf', () => {
  it('reads a generate output’s method', () => {
    expect(methodOf({ text: 'x', method: 'extractive' })).toBe('extractive')
    expect(methodOf({ method: 'guessed' })).toBeUndefined()
    expect(methodOf('text')).toBeUndefined()
  })
})
