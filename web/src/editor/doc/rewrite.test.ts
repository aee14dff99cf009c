import { describe, expect, it } from 'vitest'
import { searchDoc } from '../test/fixtures'
import { applyRewrite, renameKeys } from './rewrite'

describe('rename (applying the rewrite route answer)', () => {
  it('takes the rewritten document, sharing untouched steps', () => {
    const doc = searchDoc()
    const answer = structuredClone(doc)
    answer.steps[0].id = 'first'
    answer.steps[2].inputs.arrays = ['{{ first.output.results }}', '{{ b.output.results }}']
    const next = applyRewrite(doc, answer as never)!
    expect(next.steps.map((s) => s.id)).toEqual(['first', 'b', 'm', 't'])
    expect(next.steps[1]).toBe(doc.steps[1])
    expect(next.branding).toBe(doc.branding)
    expect(next.steps[2]).not.toBe(doc.steps[2])
  })

  it('input renames keep the declaration order', () => {
    const doc = { ...searchDoc(), inputs: { a: { type: 'string' as const }, query: { type: 'string' as const }, z: { type: 'number' as const } } }
    const answer = { ...structuredClone(doc), inputs: { a: { type: 'string' }, q: { type: 'string' }, z: { type: 'number' } } }
    const next = applyRewrite(doc, answer)!
    expect(Object.keys(next.inputs!)).toEqual(['a', 'q', 'z'])
    expect(next.inputs!.a).toBe(doc.inputs.a)
  })

  it('refuses an answer that is not a workflow', () => {
    expect(applyRewrite(searchDoc(), { steps: 'x' })).toBeUndefined()
  })

  it('renames record keys, optionally keeping the old ones', () => {
    expect(renameKeys({ a: 1, b: 2 }, { a: 'c' })).toEqual({ b: 2, c: 1 })
    expect(renameKeys({ a: 1 }, { a: 'c' }, true)).toEqual({ a: 1, c: 1 })
    const same = { a: 1 }
    expect(renameKeys(same, { x: 'y' })).toBe(same)
  })
})
