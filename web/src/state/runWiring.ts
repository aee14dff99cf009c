//! Connects the app's socket to its stores: the connection state to the connection store, server
//! messages to the run store's reducer, runs announced elsewhere to `runs.adopt`, and chat
//! messages to the Chat panel. The network layer stays store-free; this is the one place that
//! decides where what it hears goes.
import type { RunSocketSinks } from '../api/socket'
import type { App } from '../app/createApp'
import { sameIds } from './breakpointStore'

/** What the app's stores do with what its socket hears. */
export function socketSinks(app: App): RunSocketSinks {
  const { stores } = app
  return {
    onConnection: (state) => {
      stores.connection.getState().setState(state)
      // The server stops a chat answer whose socket closed.
      if (state === 'closed') app.chat.connectionLost()
    },
    onMessage: (message) => {
      const before = stores.run.getState().breakpoints
      stores.run.getState().apply(message)
      // Tabs following one step-through run agree on where it pauses: a run started or resumed
      // elsewhere with other breakpoints shows them here (local toggles since stay until then).
      const after = stores.run.getState().breakpoints
      if (after && !sameIds(before, after)) stores.breakpoints.getState().adopt(after)
    },
    onLost: () => stores.run.getState().lose('The server no longer has this run (was it restarted?).'),
    onAnnounce: (run) => app.runs.adopt(run),
    onChat: (message) => app.chat.receive(message),
  }
}
