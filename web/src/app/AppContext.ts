//! The mounted app (createApp.ts) as React sees it: `<App>` provides it, and the store hooks
//! (`useRunStore(selector)`, …) and components that act reach it through `useApp`.
import { createContext, use } from 'react'
import type { App } from './createApp'

export const AppContext = createContext<App | undefined>(undefined)

export function useApp(): App {
  const app = use(AppContext)
  if (!app) throw new Error('useApp outside <App> (tests: renderWithApp)')
  return app
}
