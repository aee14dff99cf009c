//! The WebSocket to `/api/ws`: reconnects with backoff, re-subscribes to the followed run, and
//! feeds every server message into the run store's reducer. It stops once the API has refused
//! the page for want of the access token.
import { useConnectionStore } from '../state/connectionStore'
import { useRunStore } from '../state/runStore'
import { api, isAccessDenied } from './client'
import type { ClientMessage, RunSummary, ServerMessage } from './types'

const MIN_DELAY_MS = 500
const MAX_DELAY_MS = 10_000

/** Reconnect delay after `failures` consecutive failed attempts (exponential, capped). */
export function backoffDelay(failures: number): number {
  return Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** Math.max(0, failures))
}

export function socketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/api/ws`
}

class RunSocket {
  private ws?: WebSocket
  private followed?: string
  private failures = 0
  private timer?: ReturnType<typeof setTimeout>
  private started = false
  private onAnnounce?: (run: RunSummary) => void
  /** When the followed run last heard from the server (snapshot or event), for the watchdog. */
  lastHeardAt = 0

  /**
   * Opens the socket once; later calls do nothing. `onAnnounce` hears about runs that exist
   * (`hello`) or start elsewhere (`run_created`), e.g. from another tab.
   */
  start(onAnnounce?: (run: RunSummary) => void): void {
    this.onAnnounce = onAnnounce
    if (this.started) return
    this.started = true
    this.connect()
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

  private send(message: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message))
  }

  private connect(): void {
    if (isAccessDenied()) return
    useConnectionStore.getState().setState('connecting')
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
      useConnectionStore.getState().setState('open')
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
      if (message.type === 'hello') message.runs.forEach((run) => this.onAnnounce?.(run))
      else if (message.type === 'run_created') this.onAnnounce?.(message.run)
      else if (message.type === 'error' && message.code === 'NOT_FOUND' && this.followed && message.runId === this.followed)
        useRunStore.getState().lose('The server no longer has this run (was it restarted?).')
      else {
        if ((message.type === 'snapshot' ? message.run.runId : message.type === 'event' ? message.runId : undefined) === this.followed)
          this.lastHeardAt = Date.now()
        useRunStore.getState().apply(message)
      }
    }
    ws.onclose = () => {
      if (this.ws !== ws) return
      this.ws = undefined
      useConnectionStore.getState().setState('closed')
      // A handshake refused for want of the access token looks like any failed connection;
      // one API call tells (a 401 there stops the reconnecting).
      if (!opened) void api.configStatus().catch(() => undefined)
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

export const runSocket = new RunSocket()
