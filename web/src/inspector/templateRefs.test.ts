import { describe, expect, it } from 'vitest'
import { referencedNodes, splitTemplate, hasTemplate } from './templateRefs'

const ids = new Set(['search_1', 'search_2', 'merge', 'check'])

describe('splitTemplate', () => {
  it('leaves plain text alone', () => {
    expect(splitTemplate('hello world', ids)).toEqual([{ kind: 'text', text: 'hello world' }])
  })

  it('finds a whole-value step reference', () => {
    expect(splitTemplate('{{ search_2.output.results }}', ids)).toEqual([
      { kind: 'expr', text: '{{ ' },
      { kind: 'ref', text: 'search_2.output.results', target: 'search_2' },
      { kind: 'expr', text: ' }}' },
    ])
  })

  it('points input references at the inputs node', () => {
    const parts = splitTemplate('Q: {{ inputs.query }}!', ids)
    expect(parts).toEqual([
      { kind: 'text', text: 'Q: ' },
      { kind: 'expr', text: '{{ ' },
      { kind: 'ref', text: 'inputs.query', target: '__inputs' },
      { kind: 'expr', text: ' }}' },
      { kind: 'text', text: '!' },
    ])
  })

  it('finds several references in an expression, with indexes', () => {
    const refs = splitTemplate("{{ check.output.conditionResult ? search_1.output.results[0].text : merge.output.results.length }}", ids)
      .filter((p) => p.kind === 'ref')
      .map((p) => p.text)
    expect(refs).toEqual(['check.output.conditionResult', 'search_1.output.results[0].text', 'merge.output.results.length'])
  })

  it('accepts a steps. prefix', () => {
    expect(referencedNodes('{{ steps.merge.output }}', ids)).toEqual(['merge'])
  })

  it('ignores names inside string literals and unknown identifiers', () => {
    expect(referencedNodes(`{{ 'merge' + "search_1" + item.merge + unknown.output }}`, ids)).toEqual([])
  })

  it('does not treat property names as references', () => {
    expect(referencedNodes('{{ item.search_1 }}', ids)).toEqual([])
  })

  it('handles several templates and an unterminated one', () => {
    expect(referencedNodes('{{ search_1.output }} and {{ search_2.output }} and {{ merge', ids)).toEqual(['search_1', 'search_2'])
    const parts = splitTemplate('a {{ merge', ids)
    expect(parts).toEqual([{ kind: 'text', text: 'a {{ merge' }])
  })

  it('defaults are not a node', () => {
    expect(referencedNodes('{{ defaults.limit }}', ids)).toEqual([])
  })

  it('detects templates', () => {
    expect(hasTemplate('x {{ a }}')).toBe(true)
    expect(hasTemplate('x { a }')).toBe(false)
  })
})
