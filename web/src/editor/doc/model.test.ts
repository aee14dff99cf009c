import { describe, expect, it } from 'vitest'
import { INPUTS_NODE, isStepNode, noteIdOf, noteNodeId, OUTPUT_NODE } from './model'

describe('canvas node ids', () => {
  it('tell a note apart from a step, and give back its id', () => {
    expect(noteIdOf(noteNodeId('note_1'))).toBe('note_1')
    expect(noteIdOf('note_1')).toBeUndefined()
    expect(isStepNode(noteNodeId('note_1'))).toBe(false)
  })

  it('count a step as a step, whatever its id, but not the inputs or the output', () => {
    expect(isStepNode('search')).toBe(true)
    expect(isStepNode('_private')).toBe(true)
    expect(isStepNode(INPUTS_NODE)).toBe(false)
    expect(isStepNode(OUTPUT_NODE)).toBe(false)
  })
})
