import { beforeEach, describe, expect, it } from 'vitest'
import { breakParam } from './breakpointLocation'
import { createBreakpointStore, type BreakpointStore } from './breakpointStore'
import type { StoreApi } from 'zustand/vanilla'

describe('breakpoints', () => {
  let store: StoreApi<BreakpointStore>
  const breakpoints = () => store.getState()
  beforeEach(() => {
    window.history.replaceState(null, '', '/?workflow=builtin%3Atwo-steps')
    store = createBreakpointStore()
  })

  it('toggles, keeps the ids sorted, and mirrors them in ?break=', () => {
    breakpoints().forWorkflow('builtin:two-steps', ['search', 'merge'])
    breakpoints().toggle('search')
    breakpoints().toggle('merge')
    expect(breakpoints().ids).toEqual(['merge', 'search'])
    expect(new URL(window.location.href).searchParams.get('break')).toBe('merge,search')
    expect(new URL(window.location.href).searchParams.get('workflow')).toBe('builtin:two-steps')
    breakpoints().toggle('merge')
    breakpoints().toggle('search')
    expect(breakpoints().ids).toEqual([])
    expect(window.location.search).toBe('?workflow=builtin%3Atwo-steps')
  })

  it('replaces the history entry rather than adding one', () => {
    const before = window.history.length
    breakpoints().toggle('search')
    expect(window.history.length).toBe(before)
  })

  it('takes the address’s breakpoints for the first workflow after a load, dropping unknown steps', () => {
    window.history.replaceState(null, '', '/?workflow=builtin%3Atwo-steps&break=search,gone,search')
    expect(breakParam()).toEqual(['gone', 'search'])
    breakpoints().forWorkflow('builtin:two-steps', ['search', 'merge'])
    expect(breakpoints().ids).toEqual(['search'])
    expect(new URL(window.location.href).searchParams.get('break')).toBe('search')
  })

  it('keeps them when the same workflow opens again', () => {
    breakpoints().forWorkflow('builtin:two-steps', ['search', 'merge'])
    breakpoints().toggle('merge')
    breakpoints().forWorkflow('builtin:two-steps', ['search', 'merge'])
    expect(breakpoints().ids).toEqual(['merge'])
  })

  it('clears them, and the address, when another workflow opens or the workflow closes', () => {
    breakpoints().forWorkflow('builtin:two-steps', ['search', 'merge'])
    breakpoints().toggle('merge')
    window.history.replaceState(null, '', '/?workflow=file%3Aother.vai-workflow.json&break=merge')
    breakpoints().forWorkflow('file:other.vai-workflow.json', ['merge'])
    expect(breakpoints().ids).toEqual([])
    expect(new URL(window.location.href).searchParams.has('break')).toBe(false)

    breakpoints().toggle('merge')
    breakpoints().forWorkflow(undefined, [])
    expect(breakpoints().ids).toEqual([])
    expect(new URL(window.location.href).searchParams.has('break')).toBe(false)
  })
})
