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
