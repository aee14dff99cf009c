//! Renders part of the page inside an app of its own, as `<App>` provides one: every test starts
//! from fresh stores, and reads or sets them through the `app` it gets back.
import { render, renderHook } from '@testing-library/react'
import type { ReactElement, ReactNode } from 'react'
import { AppContext } from '../app/AppContext'
import { createApp, type App } from '../app/createApp'

function wrapperOf(app: App) {
  return function AppWrapper({ children }: { children: ReactNode }) {
    return <AppContext value={app}>{children}</AppContext>
  }
}

export function renderWithApp(ui: ReactElement, app: App = createApp()) {
  return { app, ...render(ui, { wrapper: wrapperOf(app) }) }
}

export function renderHookWithApp<T>(hook: () => T, app: App = createApp()) {
  return { app, ...renderHook(hook, { wrapper: wrapperOf(app) }) }
}
