//! Presenter mode: the canvas alone, drawn larger in a high-contrast theme, with the run's status
//! in a banner and the inspector as a large overlay. `?present=1` in the address bar remembers it
//! across a reload; like the Chat panel's parameter (chat/chatLocation.ts) it replaces the
//! history entry, since switching modes is not a navigation.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'

const PARAM = 'present'

/** Whether `href` asks for presenter mode. */
export function presentIn(href: string): boolean {
  return new URL(href).searchParams.get(PARAM) === '1'
}

/** `href` with presenter mode on or off (other parameters untouched). */
export function withPresent(href: string, on: boolean): string {
  const url = new URL(href)
  if (on) url.searchParams.set(PARAM, '1')
  else url.searchParams.delete(PARAM)
  return url.href
}

export interface PresenterStore {
  on: boolean
  /** The selected node's inspector is shown as a large overlay. */
  inspecting: boolean
  set(on: boolean): void
  toggle(): void
  inspect(open: boolean): void
}

export function createPresenterStore(initial: boolean): StoreApi<PresenterStore> {
  return createStore<PresenterStore>()((set, get) => ({
    on: initial,
    inspecting: false,
    set: (on) => {
      if (on === get().on) return
      set({ on, inspecting: false })
      const href = withPresent(window.location.href, on)
      if (href !== window.location.href) window.history.replaceState(window.history.state, '', href)
    },
    toggle: () => get().set(!get().on),
    inspect: (inspecting) => set({ inspecting }),
  }))
}

/** A narrow selector over the app's presenter mode: the component re-renders only when its answer changes. */
export function usePresenterStore<T>(selector: (s: PresenterStore) => T): T {
  return useStore(useApp().stores.presenter, selector)
}

/** Presenter mode draws the canvas this many times larger than a normal fit. */
export const PRESENTER_SCALE = 1.5
