import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useWorkflowStore } from '../state/workflowStore'
import { usePresenterStore } from './presenter'
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
    act(() => usePresenterStore.getState().set(false))
    window.history.replaceState(null, '', '/')
  })

  it('docks the panels on a wide screen, open as remembered', () => {
    screenWidth(1440)
    const { result } = renderHook(() => useSidePanels())
    expect(result.current.docked).toBe(true)
    expect(result.current.library).toBe(true)
    expect(result.current.inspector).toBe(true)
    act(() => result.current.toggleLibrary())
    expect(result.current.library).toBe(false)
    expect(localStorage.getItem('vai.panel.library')).toBe('false')
  })

  it('below 1280 px makes them drawers, closed at first and one at a time', () => {
    screenWidth(1024)
    const { result } = renderHook(() => useSidePanels())
    expect(result.current.docked).toBe(false)
    expect(result.current.library).toBe(false)
    expect(result.current.inspector).toBe(false)
    act(() => result.current.toggleLibrary())
    expect(result.current.library).toBe(true)
    act(() => result.current.toggleInspector())
    expect(result.current.library).toBe(false)
    expect(result.current.inspector).toBe(true)
    act(() => result.current.closeDrawer())
    expect(result.current.inspector).toBe(false)
    // The wide layout's remembered choice is untouched.
    expect(localStorage.getItem('vai.panel.inspector')).toBeNull()
  })

  it('closes the library drawer once it has opened a workflow', () => {
    screenWidth(1024)
    const { result } = renderHook(() => useSidePanels())
    act(() => result.current.toggleLibrary())
    act(() => useWorkflowStore.setState({ current: { key: 'builtin:x', label: 'X', text: '{}' } }))
    expect(result.current.library).toBe(false)
  })

  it('in presenter mode has no chat and shows the inspector as the overlay', () => {
    screenWidth(1920)
    const { result } = renderHook(() => useSidePanels())
    act(() => usePresenterStore.getState().set(true))
    expect(result.current.docked).toBe(false)
    expect(result.current.chat).toBeUndefined()
    expect(result.current.inspector).toBe(false)
    act(() => result.current.toggleInspector())
    expect(usePresenterStore.getState().inspecting).toBe(true)
    expect(result.current.inspector).toBe(true)
  })
})
