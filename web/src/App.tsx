//! The playground's root: creates the app (stores, API client, socket, actions — createApp.ts)
//! once per mount and provides it to everything under it. A test passes its own `app` to look
//! inside it.
import { useState } from 'react'
import { AppContext } from './app/AppContext'
import { createApp, type App as AppInstance } from './app/createApp'
import Shell from './shell/Shell'

export default function App({ app }: { app?: AppInstance }) {
  const [mounted] = useState(() => app ?? createApp())
  return (
    <AppContext value={mounted}>
      <Shell />
    </AppContext>
  )
}
