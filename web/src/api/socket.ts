//! The WebSocket to `/api/ws`: reconnects with backoff, re-subscribes to the followed run, sends
//! the Chat panel's questions, and hands what it hears to the sinks it is started with; it knows
//! no store (state/runWiring.ts connects them). It stops once the API has refused the page for
//! want of the access token.
import type { ChatAsk, ClientMessage, RunSummary, ServerMessage } from './types'

/** What the socket hears about chat: a turn's events, and errors that name no run. */
export type ChatServerMessage = Extract<ServerMessage, { type: 'chat' } | { type: 'error' }>

const MIN_DELAY_MS = 500
const MAX_DELAY_MS = 10_000

/** Reconnect delay after `failures` consecutive failed attempts (exponential, capped). */
export function backoffDelay(failures: number): number {
  return Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** Math.max(0, failures))
}

export function socketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/api/ws`
}

export type ConnectionState = 'connecting' | 'open' | 'closed'

/** Where the socket reports what it hears. */
export interface RunSocketSinks {
  /** The socket is connecting, open, or closed (and will retry). */
  onConnection(state: ConnectionState): void
  /** A server message for the reducer: a snapshot, an event, or an error it ignores. */
  onMessage(message: ServerMessage): void
  /** The server no longer knows the followed run (e.g. it was restarted). */
  onLost(runId: string): void
  /** A run exists (`hello`) or started elsewhere (`run_created`), e.g. from another tab. */
  onAnnounce(run: RunSummary): void
  /** A chat turn's event, or an error that names no run (a question refused). */
  onChat(message: ChatServerMessage): void
}

/** How the socket learns that the page lacks the access token. */
export interface AccessCheck {
  /** The API has refused the page: connecting again is pointless. */
  refused(): boolean
  /** Makes one API call, whose 401 (if the handshake was refused for that) makes `refused` true. */
  probe(): void
}

const NO_CHECK: AccessCheck = { refused: () => false, probe: () => {} }

export class RunSocket {
  private readonly access: AccessCheck
  private ws?: WebSocket
  private followed?: string
  private failures = 0
  private timer?: ReturnType<typeof setTimeout>
  private started = false
  private sinks?: RunSocketSinks
  /** When the followed run last heard from the server (snapshot or event), for the watchdog. */
  lastHeardAt = 0

  constructor(access: AccessCheck = NO_CHECK) {
    this.access = access
  }

  /** Opens the socket once; a later call only replaces the sinks. */
  start(sinks: RunSocketSinks): void {
    this.sinks = sinks
    if (this.started) return
    this.started = true
    this.connect()
  }

  /** Closes the socket and stops reconnecting (the app is unmounted); `start` opens it again. */
  stop(): void {
    clearTimeout(this.timer)
    const ws = this.ws
    this.ws = undefined
    this.started = false
    this.failures = 0
    this.sinks = undefined
    ws?.close()
  }

  /** Follows a run: unsubscribes from the previous one and subscribes to this one. */
  follow(runId: string): void {
    if (this.followed && this.followed !== runId) this.send({ type: 'unsubscribe', runId: this.followed })
    this.followed = runId
    this.lastHeardAt = Date.now()
    this.send({ type: 'subscribe', runId })
  }

  unfollow(): void {
    if (this.followed) this.send({ type: 'unsubscribe', runId: this.followed })
    this.followed = undefined
  }

  /** Asks a chat question; false when the socket is not open (nothing was sent). */
  ask(ask: ChatAsk): boolean {
    return this.send({ type: 'chat_ask', ask })
  }

  /** Stops the answer of the session's running turn. */
  cancelChat(sessionId: string): void {
    this.send({ type: 'chat_cancel', sessionId })
  }

  private send(message: ClientMessage): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false
    this.ws.send(JSON.stringify(message))
    return true
  }

  private connect(): void {
    if (!this.started || this.access.refused()) return
    this.sinks?.onConnection('connecting')
    let ws: WebSocket
    try {
      ws = new WebSocket(socketUrl())
    } catch {
      this.scheduleReconnect()
      return
    }
    this.ws = ws
    let opened = false
    ws.onopen = () => {
      opened = true
      this.failures = 0
      this.sinks?.onConnection('open')
      // Continue from a fresh snapshot: events missed while disconnected are in it.
      if (this.followed) this.send({ type: 'subscribe', runId: this.followed })
    }
    ws.onmessage = (e) => {
      let message: ServerMessage
      try {
        message = JSON.parse(String(e.data)) as ServerMessage
      } catch {
        return
      }
      if (message.type === 'hello') message.runs.forEach((run) => this.sinks?.onAnnounce(run))
      else if (message.type === 'run_created') this.sinks?.onAnnounce(message.run)
      else if (message.type === 'error' && message.code === 'NOT_FOUND' && this.followed && message.runId === this.followed) this.sinks?.onLost(this.followed)
      else if (message.type === 'chat' || (message.type === 'error' && message.runId === undefined)) this.sinks?.onChat(message)
      else {
        if ((message.type === 'snapshot' ? message.run.runId : message.type === 'event' ? message.runId : undefined) === this.followed)
          this.lastHeardAt = Date.now()
        this.sinks?.onMessage(message)
      }
    }
    ws.onclose = () => {
      if (this.ws !== ws) return
      this.ws = undefined
      this.sinks?.onConnection('closed')
      // A handshake refused for want of the access token looks like any failed connection;
      // one API call tells (a 401 there stops the reconnecting).
      if (!opened) this.access.probe()
      this.scheduleReconnect()
    }
  }

  private scheduleReconnect(): void {
    clearTimeout(this.timer)
    const delay = backoffDelay(this.failures)
    this.failures += 1
    this.timer = setTimeout(() => this.connect(), delay)
  }
}
