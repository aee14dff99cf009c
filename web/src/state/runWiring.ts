//! Connects the run socket to the stores: its connection state to the connection store, server
//! messages to the run store's reducer, runs announced elsewhere to `adoptRun`, and chat
//! messages to the Chat panel. The network layer stays store-free; this is the one place that
//! decides where what it hears goes.
import { runSocket, type RunSocketSinks } from '../api/socket'
import { chatConnectionLost, receiveChat } from '../chat/chatActions'
import { sameIds, useBreakpointStore } from './breakpointStore'
import { useConnectionStore } from './connectionStore'
import { adoptRun } from './runActions'
import { useRunStore } from './runStore'

/** What the stores do with what the socket hears. */
export const storeSinks: RunSocketSinks = {
  onConnection: (state) => {
    useConnectionStore.getState().setState(state)
    // The server stops a chat answer whose socket closed.
    if (state === 'closed') chatConnectionLost()
  },
  onMessage: (message) => {
    const before = useRunStore.getState().breakpoints
    useRunStore.getState().apply(message)
    // Tabs following one step-through run agree on where it pauses: a run started or resumed
    // elsewhere with other breakpoints shows them here (local toggles since stay until then).
    const after = useRunStore.getState().breakpoints
    if (after && !sameIds(before, after)) useBreakpointStore.getState().adopt(after)
  },
  onLost: () => useRunStore.getState().lose('The server no longer has this run (was it restarted?).'),
  onAnnounce: adoptRun,
  onChat: receiveChat,
}

/** Opens the page's run socket (once) with the stores as its sinks. */
export function connectRunSocket(): void {
  runSocket.start(storeSinks)
}
