import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { installFakeServer } from '../test/fakeServer'

// The canvas (React Flow) is tested on its own.
vi.mock('../canvas/Canvas', () => ({ default: () => <main aria-label="Canvas" /> }))
const { default: App } = await import('../App')

const unauthorized = () =>
  new Response(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'open the URL `vai playground` printed' } }), {
    status: 401,
  })

describe('a page opened without the access token', () => {
  it('says which link to open instead of drawing panels that cannot load', async () => {
    const server = installFakeServer({ respond: ({ path }) => (path.startsWith('/api/') ? unauthorized() : undefined) })
    render(<App />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/This page needs the link vai playground printed, which carries an access token/)
    expect(alert.textContent).toMatch(/\?token=/)
    expect(screen.queryByRole('navigation', { name: 'Library' })).toBeNull()
    expect(server.calls.some((c) => c.path === '/api/workflows')).toBe(true)
  })

  it('stops reconnecting the run socket', async () => {
    const { sockets } = installFakeServer({ respond: ({ path }) => (path.startsWith('/api/') ? unauthorized() : undefined) })
    render(<App />)
    await screen.findByRole('alert')
    const before = sockets.length
    // The server drops the socket, as it does when it restarts with a new token.
    const socket = sockets[before - 1]
    act(() => socket.onclose?.())
    // Past the first reconnect delay (500 ms): no new socket was opened.
    await new Promise((r) => setTimeout(r, 800))
    expect(sockets.length).toBe(before)
  })
})
