import { describe, expect, it } from 'vitest'
import { reusedFrom } from './replay'

describe('reusedFrom', () => {
  it('names the run a replayed step was reused from', () => {
    expect(reusedFrom({ status: 'completed', backend: 'replay', durationMs: 0 }, 'run-18c-2')).toBe('reused from run run-18c-2')
  })

  it('still says so when the run is not known (a run adopted after a reload)', () => {
    expect(reusedFrom({ status: 'completed', backend: 'replay' }, undefined)).toBe('reused from an earlier run')
  })

  it('is nothing for a step that ran', () => {
    expect(reusedFrom({ status: 'completed', backend: 'local', durationMs: 0 }, 'run-1')).toBeUndefined()
    expect(reusedFrom(undefined, 'run-1')).toBeUndefined()
  })
})
