import { describe, expect, it } from 'vitest'
import { searchDoc } from '../test/fixtures'
import { copySteps, parseFragment, pasteIds, placeFragment } from './clipboard'

describe('copy and paste', () => {
  it('copies the chosen steps in document order with their positions', () => {
    const text = copySteps(searchDoc(), new Set(['m', 'a']), { a: { x: 10.2, y: 0 }, m: { x: 300, y: 50 } })!
    const parsed = JSON.parse(text)
    expect(parsed.steps.map((s: { id: string }) => s.id)).toEqual(['a', 'm'])
    expect(parsed.ui.positions).toEqual({ a: { x: 10, y: 0 }, m: { x: 300, y: 50 } })
    expect(copySteps(searchDoc(), new Set(['__inputs']), {})).toBeUndefined()
  })

  it('reads back what it copied', () => {
    const text = copySteps(searchDoc(), new Set(['a']), { a: { x: 1, y: 2 } })!
    const fragment = parseFragment(text)
    expect(fragment).toEqual({ steps: [searchDoc().steps[0]], positions: { a: { x: 1, y: 2 } } })
  })

  it('accepts a list of steps or a whole workflow', () => {
    expect(parseFragment(JSON.stringify([{ id: 'x', tool: 'query' }]))).toMatchObject({ steps: [{ id: 'x' }], positions: {} })
    expect(parseFragment(JSON.stringify(searchDoc()))).toMatchObject({ steps: { length: 4 } })
  })

  it('gives missing and repeated ids a fresh one', () => {
    const fragment = parseFragment(JSON.stringify([{ tool: 'query' }, { id: 'x', tool: 'merge' }, { id: 'x', tool: 'merge' }]))
    expect('steps' in fragment && fragment.steps.map((s) => s.id)).toEqual(['query_1', 'x', 'merge_1'])
  })

  it('says what is wrong with something that is not steps', () => {
    expect(parseFragment('hello')).toEqual({ error: expect.stringMatching(/no workflow steps/) })
    expect(parseFragment('{"a": 1}')).toEqual({ error: expect.stringMatching(/no workflow steps/) })
    expect(parseFragment('[]')).toEqual({ error: expect.stringMatching(/no workflow steps/) })
    expect(parseFragment('[{"id": "a", "tool": "query"}, 3]')).toEqual({ error: 'Step 2 of the pasted JSON has no "tool", so it is not a workflow step.' })
  })

  it('renames only pasted ids that clash, avoiding each other', () => {
    const pasted = [
      { id: 'a', tool: 'query', inputs: {} },
      { id: 'a_1', tool: 'query', inputs: {} },
      { id: 'new', tool: 'query', inputs: {} },
    ]
    expect(pasteIds(pasted, ['a', 'b'])).toEqual({ a: 'a_2' })
    expect(pasteIds(pasted, ['a', 'a_1', 'new'])).toEqual({ a: 'a_2', a_1: 'a_3', new: 'new_1' })
  })

  it('places a pasted group at a point, keeping its shape', () => {
    const fragment = {
      steps: [
        { id: 'a', tool: 'q', inputs: {} },
        { id: 'b', tool: 'q', inputs: {} },
        { id: 'c', tool: 'q', inputs: {} },
      ],
      positions: { a: { x: 100, y: 100 }, b: { x: 400, y: 150 } },
    }
    expect(placeFragment(fragment, { x: 0, y: 10 })).toEqual({ a: { x: 0, y: 10 }, b: { x: 300, y: 60 }, c: { x: 80, y: 270 } })
  })
})
