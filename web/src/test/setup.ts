import { cleanup } from '@testing-library/react'
import { afterEach, beforeEach } from 'vitest'
import { resetStores } from '../state/resetStores'

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

// vitest runs without globals, so testing-library cannot register its own cleanup.
afterEach(() => cleanup())

// The stores live as long as the page, which in vitest is the whole test file.
beforeEach(() => resetStores())
