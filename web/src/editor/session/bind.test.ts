import { describe, expect, it } from 'vitest'
import { problemsOf } from './bind'

describe('problemsOf', () => {
  it('marks each step by its worst diagnostic, ignoring notes and workflow-level ones', () => {
    expect(
      problemsOf([
        { severity: 'warning', code: 'W', message: '', stepId: 'a' },
        { severity: 'error', code: 'E', message: '', stepId: 'a' },
        { severity: 'warning', code: 'W', message: '', stepId: 'b' },
        { severity: 'info', code: 'I', message: '', stepId: 'c' },
        { severity: 'error', code: 'E', message: '' },
      ]),
    ).toEqual({ a: 'error', b: 'warning' })
  })
})
