import { describe, expect, it } from 'vitest'
import { problemsOf } from './bind'

describe('problemsOf', () => {
  it('marks each step by its worst diagnostic, ignoring notes and workflow-level ones', () => {
    expect(
      problemsOf([
        { severity: 'warning', code: 'ORPHAN_NODE', message: '', stepId: 'a' },
        { severity: 'error', code: 'INVALID_DEFINITION', message: '', stepId: 'a' },
        { severity: 'warning', code: 'ORPHAN_NODE', message: '', stepId: 'b' },
        { severity: 'info', code: 'ORPHAN_NODE', message: '', stepId: 'c' },
        { severity: 'error', code: 'INVALID_DEFINITION', message: '' },
      ]),
    ).toEqual({ a: 'error', b: 'warning' })
  })
})
