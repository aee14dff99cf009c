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

describe('reusedFrom a journal', () => {
  it('names the past run a restarted run reused the step from', () => {
    expect(reusedFrom({ status: 'completed', backend: 'journal', durationMs: 0 }, 'r18c0ffee')).toBe('reused from run r18c0ffee')
  })

  it('says the journal kept it when the run it came from is not known (a resumed run)', () => {
    expect(reusedFrom({ status: 'completed', backend: 'journal' }, undefined)).toBe('reused from the run’s journal')
  })
})
