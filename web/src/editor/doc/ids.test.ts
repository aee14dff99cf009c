import { describe, expect, it } from 'vitest'
import { freeId, idBase, numberedId } from './ids'

describe('step ids', () => {
  it('number from the tool name, starting at 1', () => {
    expect(numberedId('query', new Set())).toBe('query_1')
    expect(numberedId('query', new Set(['query_1', 'query_2']))).toBe('query_3')
  })

  it('make identifiers of any tool name', () => {
    expect(idBase('my-tool')).toBe('my_tool')
    expect(idBase('1x')).toBe('_1x')
    expect(idBase('')).toBe('step')
  })

  it('keep a free id and renumber a taken one', () => {
    expect(freeId('search', new Set(['a']))).toBe('search')
    expect(freeId('search', new Set(['search']))).toBe('search_1')
    expect(freeId('query_1', new Set(['query_1']))).toBe('query_2')
    expect(freeId('inputs', new Set())).toBe('inputs_1')
    expect(freeId('not-an-id', new Set())).toBe('not_an_id_1')
  })
})
