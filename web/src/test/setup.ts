import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// jsdom lacks a few browser APIs that React Flow and MUI touch.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
const g = globalThis as Record<string, unknown>
g.ResizeObserver ??= ResizeObserverStub
g.DOMMatrixReadOnly ??= class {
  m22 = 1
  constructor(_transform?: string) {}
}

// findBy…/waitFor wait up to 5 s, not testing-library's 1 s: on a two-core machine busy with a
// Rust build, a whole app's first render alone can take longer. A test that fails still fails.
configure({ asyncUtilTimeout: 5_000 })

// vitest runs without globals, so testing-library cannot register its own cleanup. Unmounting
// an app also closes its socket; each test creates its own app (renderWithApp, <App />). Test
// files share their worker's document (vitest.config.ts): what a test left in the page (a
// portal, an element it appended) or in storage is cleared before the next one.
afterEach(() => {
  cleanup()
  document.body.innerHTML = ''
  localStorage.clear()
  sessionStorage.clear()
})
