import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { backoffDelay, RunSocket, type RunSocketSinks } from './socket'
import type { RunSummary, ServerMessage } from './types'

/** A WebSocket whose server side the test plays. */
class FakeSocket {
  static OPEN = 1
  static all: FakeSocket[] = []
  readyState = 0
  sent: unknown[] = []
  onopen?: () => void
  onmessage?: (e: { data: string }) => void
  onclose?: () => void
  constructor(public url: string) {
    FakeSocket.all.push(this)
  }
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  open() {
    this.readyState = FakeSocket.OPEN
    this.onopen?.()
  }
  receive(data: ServerMessage | string) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) })
  }
  drop() {
    this.readyState = 3
    this.onclose?.()
  }
  close() {
    this.drop()
  }
}

const latest = () => FakeSocket.all[FakeSocket.all.length - 1]

function sinks() {
  return { onConnection: vi.fn(), onMessage: vi.fn(), onLost: vi.fn(), onAnnounce: vi.fn(), onChat: vi.fn() } satisfies RunSocketSinks
}

const run = (runId: string): RunSummary => ({ runId, workflow: 'w', workflowId: 'builtin:w', status: 'running', startedAt: 0 })

beforeEach(() => {
  FakeSocket.all = []
  vi.stubGlobal('WebSocket', FakeSocket)
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('RunSocket', () => {
  it('reports its connection, and after a drop reconnects and subscribes again', () => {
    const heard = sinks()
    const socket = new RunSocket()
    socket.start(heard)
    expect(latest().url).toMatch(/^ws:\/\/.*\/api\/ws$/)
    latest().open()
    socket.follow('r1')
    expect(latest().sent).toEqual([{ type: 'subscribe', runId: 'r1' }])

    latest().drop()
    expect(heard.onConnection.mock.calls.map(([state]) => state)).toEqual(['connecting', 'open', 'closed'])
    vi.advanceTimersByTime(backoffDelay(0))
    expect(FakeSocket.all).toHaveLength(2)
    latest().open()
    expect(latest().sent).toEqual([{ type: 'subscribe', runId: 'r1' }])
    expect(heard.onConnection.mock.calls.map(([state]) => state)).toEqual(['connecting', 'open', 'closed', 'connecting', 'open'])
  })

  it('hands each server message to its sink', () => {
    const heard = sinks()
    const socket = new RunSocket()
    socket.start(heard)
    latest().open()
    socket.follow('r1')

    latest().receive({ type: 'hello', runs: [run('a'), run('b')] })
    latest().receive({ type: 'run_created', run: run('c') })
    expect(heard.onAnnounce.mock.calls.map(([r]) => r.runId)).toEqual(['a', 'b', 'c'])

    vi.setSystemTime(50_000)
    const event: ServerMessage = { type: 'event', runId: 'r1', seq: 1, event: { type: 'step_started', stepId: 's', name: 'S', tool: 't' } }
    latest().receive(event)
    expect(heard.onMessage).toHaveBeenCalledWith(event)
    expect(socket.lastHeardAt).toBe(50_000)

    latest().receive({ type: 'error', code: 'NOT_FOUND', message: 'no such run', runId: 'r1' })
    expect(heard.onLost).toHaveBeenCalledWith('r1')
    const other: ServerMessage = { type: 'error', code: 'NOT_FOUND', message: 'no such run', runId: 'r2' }
    latest().receive(other)
    expect(heard.onMessage).toHaveBeenLastCalledWith(other)
    expect(heard.onLost).toHaveBeenCalledTimes(1)

    latest().receive('not json')
    expect(heard.onMessage).toHaveBeenCalledTimes(2)
  })

  it('sends chat questions and stops, and hands chat messages and run-less errors to the chat sink', () => {
    const heard = sinks()
    const socket = new RunSocket()
    socket.start(heard)
    expect(socket.ask({ question: 'too early' })).toBe(false)
    latest().open()
    expect(socket.ask({ question: 'what is vai?', mode: 'pipeline' })).toBe(true)
    socket.cancelChat('s1')
    expect(latest().sent).toEqual([
      { type: 'chat_ask', ask: { question: 'what is vai?', mode: 'pipeline' } },
      { type: 'chat_cancel', sessionId: 's1' },
    ])

    const text: ServerMessage = { type: 'chat', sessionId: 's1', event: { type: 'text', delta: 'hi' } }
    latest().receive(text)
    const busy: ServerMessage = { type: 'error', code: 'BUSY', message: 'busy', sessionId: 's1' }
    latest().receive(busy)
    expect(heard.onChat.mock.calls.map(([m]) => m)).toEqual([text, busy])
    expect(heard.onMessage).not.toHaveBeenCalled()
  })

  it('opens once; a second start only replaces the sinks', () => {
    const first = sinks()
    const second = sinks()
    const socket = new RunSocket()
    socket.start(first)
    socket.start(second)
    expect(FakeSocket.all).toHaveLength(1)
    latest().open()
    expect(first.onConnection).toHaveBeenCalledTimes(1)
    expect(second.onConnection).toHaveBeenCalledWith('open')
  })

  it('moves its subscription when it follows another run, and drops it on unfollow', () => {
    const socket = new RunSocket()
    socket.start(sinks())
    latest().open()
    socket.follow('r1')
    socket.follow('r2')
    socket.unfollow()
    expect(latest().sent).toEqual([
      { type: 'subscribe', runId: 'r1' },
      { type: 'unsubscribe', runId: 'r1' },
      { type: 'subscribe', runId: 'r2' },
      { type: 'unsubscribe', runId: 'r2' },
    ])
  })

  it('stops: closes, reports nothing more and does not reconnect until started again', () => {
    const heard = sinks()
    const socket = new RunSocket()
    socket.start(heard)
    latest().open()
    socket.stop()
    expect(latest().readyState).toBe(3)
    vi.advanceTimersByTime(60_000)
    expect(FakeSocket.all).toHaveLength(1)
    expect(heard.onConnection.mock.calls).toEqual([['connecting'], ['open']])
    socket.start(heard)
    expect(FakeSocket.all).toHaveLength(2)
  })

  it('asks the API once when a handshake fails, and gives up once the page is refused', () => {
    let refused = false
    const probe = vi.fn(() => {
      refused = true
    })
    const socket = new RunSocket({ refused: () => refused, probe })
    socket.start(sinks())
    latest().drop()
    expect(probe).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(60_000)
    expect(FakeSocket.all).toHaveLength(1)
  })
})
