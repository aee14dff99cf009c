import { afterEach, describe, expect, it } from 'vitest'
import { createPresenterStore, presentIn, withPresent } from './presenter'

describe('the ?present= parameter', () => {
  it('is read as on only when it is 1', () => {
    expect(presentIn('http://x/?workflow=builtin%3Arag-chat&present=1')).toBe(true)
    expect(presentIn('http://x/?present=0')).toBe(false)
    expect(presentIn('http://x/')).toBe(false)
  })

  it('is set and removed without touching other parameters', () => {
    const on = withPresent('http://x/?workflow=a&chat=new', true)
    expect(new URL(on).searchParams.get('workflow')).toBe('a')
    expect(new URL(on).searchParams.get('chat')).toBe('new')
    expect(presentIn(on)).toBe(true)
    expect(withPresent(on, false)).toBe('http://x/?workflow=a&chat=new')
  })
})

describe('the presenter store', () => {
  afterEach(() => window.history.replaceState(null, '', '/'))

  it('writes the mode to the address bar, replacing the entry', () => {
    window.history.replaceState(null, '', '/?workflow=a')
    const before = window.history.length
    const store = createPresenterStore(false)
    store.getState().toggle()
    expect(store.getState().on).toBe(true)
    expect(window.location.search).toBe('?workflow=a&present=1')
    store.getState().toggle()
    expect(window.location.search).toBe('?workflow=a')
    expect(window.history.length).toBe(before)
  })

  it('closes the inspector overlay when the mode changes', () => {
    const store = createPresenterStore(true)
    store.getState().inspect(true)
    store.getState().set(false)
    expect(store.getState().inspecting).toBe(false)
  })
})
