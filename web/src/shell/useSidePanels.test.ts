import { act } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderHookWithApp } from '../test/renderWithApp'
import { useSidePanels } from './useSidePanels'

function screenWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: width >= Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
  }))
}

describe('useSidePanels', () => {
  beforeEach(() => localStorage.clear())
  afterEach(() => {
    vi.unstubAllGlobals()
    window.history.replaceState(null, '', '/')
  })

  it('docks the panels on a wide screen, open as remembered', () => {
    screenWidth(1440)
    const { result } = renderHookWithApp(() => useSidePanels())
    expect(result.current.docked).toBe(true)
    expect(result.current.library).toBe(true)
    expect(result.current.inspector).toBe(true)
    act(() => result.current.toggleLibrary())
    expect(result.current.library).toBe(false)
    expect(localStorage.getItem('vai.panel.library')).toBe('false')
  })

  it('keeps the Runs panel closed until asked, then remembers it open', () => {
    screenWidth(1440)
    const { result } = renderHookWithApp(() => useSidePanels())
    expect(result.current.runs).toBe(false)
    act(() => result.current.toggleRuns())
    expect(result.current.runs).toBe(true)
    expect(localStorage.getItem('vai.panel.runs')).toBe('true')
  })

  it('below 1280 px makes them drawers, closed at first and one at a time', () => {
    screenWidth(1024)
    const { result } = renderHookWithApp(() => useSidePanels())
    expect(result.current.docked).toBe(false)
    expect(result.current.library).toBe(false)
    expect(result.current.inspector).toBe(false)
    act(() => result.current.toggleLibrary())
    expect(result.current.library).toBe(true)
    act(() => result.current.toggleInspector())
    expect(result.current.library).toBe(false)
    expect(result.current.inspector).toBe(true)
    act(() => result.current.toggleRuns())
    expect(result.current.inspector).toBe(false)
    expect(result.current.runs).toBe(true)
    act(() => result.current.closeDrawer())
    expect(result.current.runs).toBe(false)
    // The wide layout's remembered choice is untouched.
    expect(localStorage.getItem('vai.panel.inspector')).toBeNull()
  })

  it('closes the library drawer once it has opened a workflow', () => {
    screenWidth(1024)
    const { result, app } = renderHookWithApp(() => useSidePanels())
    act(() => result.current.toggleLibrary())
    act(() => app.stores.workflow.setState({ current: { key: 'builtin:x', label: 'X', text: '{}' } }))
    expect(result.current.library).toBe(false)
  })

  it('in presenter mode has no chat and shows the inspector as the overlay', () => {
    screenWidth(1920)
    const { result, app } = renderHookWithApp(() => useSidePanels())
    act(() => app.stores.presenter.getState().set(true))
    expect(result.current.docked).toBe(false)
    expect(result.current.chat).toBeUndefined()
    expect(result.current.inspector).toBe(false)
    act(() => result.current.toggleInspector())
    expect(app.stores.presenter.getState().inspecting).toBe(true)
    expect(result.current.inspector).toBe(true)
  })
})
