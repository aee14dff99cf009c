import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp } from './app/createApp'
import { installFakeServer } from './test/fakeServer'
import { useWorkflowStore } from './state/workflowStore'

// The canvas (React Flow) is the canvas engineer's and tested there; a stand-in draws buttons
// under the landmark the real one renders.
vi.mock('./canvas/Canvas', () => ({
  default: function FakeCanvas() {
    const graph = useWorkflowStore((s) => s.graph)
    const select = useWorkflowStore((s) => s.select)
    return (
      <main aria-label="Canvas">
        {graph?.nodes.map((n) => (
          <button key={n.id} data-testid={`node-${n.id}`} onClick={() => select(n.id)}>
            {n.id}
          </button>
        ))}
      </main>
    )
  },
}))

const { default: App } = await import('./App')

describe('App shell', () => {
  let server: ReturnType<typeof installFakeServer>
  beforeEach(() => {
    localStorage.clear()
    window.history.replaceState(null, '', '/')
    server = installFakeServer()
  })

  it('shows the regions and an empty state', async () => {
    render(<App />)
    expect(screen.getByRole('navigation', { name: 'Library' })).toBeTruthy()
    expect(screen.getByRole('main', { name: 'Canvas' })).toBeTruthy()
    expect(screen.getByRole('complementary', { name: 'Inspector' })).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Run' })).toBeTruthy()
    expect(screen.getAllByRole('main', { name: 'Canvas' })).toHaveLength(1)
    expect(screen.getByTestId('run-status').textContent).toBe('Ready')
    await screen.findByRole('button', { name: /^Two Steps/ })
    await screen.findByText('Offline: no LLM')
  })

  it('opens a workflow from the library, runs it and folds live events', async () => {
    render(<App />)
    const library = screen.getByRole('navigation', { name: 'Library' })
    fireEvent.click(await within(library).findByRole('button', { name: /^Two Steps/ }))
    await screen.findByTestId('node-search')
    expect(window.location.search).toBe('?workflow=builtin%3Atwo-steps')

    const inspector = screen.getByRole('complementary', { name: 'Inspector' })
    expect(within(inspector).getByText('Search, then merge')).toBeTruthy()
    expect(within(inspector).getByText('query', { exact: true })).toBeTruthy()
    expect(screen.queryByTestId('diagnostics')).toBeNull()

    const runBar = screen.getByRole('region', { name: 'Run' })
    fireEvent.change(within(runBar).getByRole('textbox', { name: /^query/ }), { target: { value: 'hello there' } })
    fireEvent.click(within(runBar).getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(screen.getByTestId('run-status').textContent).toBe('Running'))
    const start = server.calls.find((c) => c.path === '/api/runs' && c.method === 'POST')
    expect(start?.body).toMatchObject({ inputs: { query: 'hello there', limit: 5 }, workflowId: 'builtin:two-steps' })

    const socket = server.sockets[server.sockets.length - 1]
    await waitFor(() => expect(socket.sent).toContainEqual({ type: 'subscribe', runId: 'run-1' }))
    act(() => {
      socket.push({ type: 'event', runId: 'run-1', seq: 1, event: { type: 'step_completed', stepId: 'search', durationMs: 12, summary: '1 result' } })
      socket.push({ type: 'event', runId: 'run-1', seq: 2, event: { type: 'run_finished', status: 'completed', durationMs: 40 }, output: { resultCount: 1 } })
    })
    expect(screen.getByTestId('run-status').textContent).toBe('Completed')
    expect(screen.getByTestId('run-elapsed').textContent).toBe('40 ms')
    expect(within(inspector).getByText('Final output')).toBeTruthy()
    expect(within(inspector).getByText(/resultCount/)).toBeTruthy()

    fireEvent.click(screen.getByTestId('node-merge'))
    expect(within(inspector).getByRole('heading', { name: 'Merge it' })).toBeTruthy()
    expect(within(inspector).getByText('Configured inputs')).toBeTruthy()
    // References are linked once the reference index for the document has arrived.
    fireEvent.click(await within(inspector).findByRole('button', { name: /search\.output/ }))
    expect(within(inspector).getByRole('heading', { name: 'Search it' })).toBeTruthy()
    await within(inspector).findByText('Resolved inputs')
    expect(within(inspector).getByText(/hello there/)).toBeTruthy()
    expect(within(inspector).getByRole('button', { name: 'Run this step' }).hasAttribute('disabled')).toBe(false)
  })

  it('keeps pasted text with a JSON syntax error in the dialog, with the line and column', async () => {
    const app = createApp()
    render(<App app={app} />)
    fireEvent.click(screen.getByRole('button', { name: 'Paste JSON' }))
    const dialog = await screen.findByRole('dialog')
    const box = within(dialog).getByRole('textbox', { name: 'Workflow JSON' })
    fireEvent.change(box, { target: { value: '{ "a": 1, }' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Open' }))
    const shown = await within(dialog).findByRole('alert')
    expect(shown.textContent).toMatch(/not valid JSON at line 4:18/)
    // Nothing was opened: the dialog and the text stay to be corrected.
    expect(screen.getByRole('dialog')).toBe(dialog)
    expect((box as HTMLTextAreaElement).value).toBe('{ "a": 1, }')
    expect(app.stores.workflow.getState().current).toBeUndefined()
    // Correcting the text clears the error; valid JSON opens and closes the dialog.
    fireEvent.change(box, { target: { value: '{ "a": 1 }' } })
    expect(within(dialog).queryByRole('alert')).toBeNull()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Open' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(app.stores.workflow.getState().current?.label).toBe('Two Steps'))
  })

  it('gives each mounted app its own socket, closed when it unmounts', async () => {
    const { unmount } = render(<App />)
    await waitFor(() => expect(server.sockets).toHaveLength(1))
    await waitFor(() => expect(server.sockets[0].readyState).toBe(1))
    unmount()
    expect(server.sockets[0].readyState).toBe(3)
    render(<App />)
    await waitFor(() => expect(server.sockets).toHaveLength(2))
  })

  it('opens the workflow named in the URL', async () => {
    window.history.replaceState(null, '', '/?workflow=builtin%3Atwo-steps')
    render(<App />)
    await screen.findByTestId('node-merge')
    expect(screen.getByRole('button', { name: 'Recent: Two Steps' })).toBeTruthy()
  })

  it('shows why a run was refused, such as the run cap', async () => {
    const message = '8 runs are already running; wait for one to finish or cancel one'
    installFakeServer({
      respond: ({ method, path }) =>
        method === 'POST' && path === '/api/runs' ? new Response(JSON.stringify({ error: { code: 'TOO_MANY_RUNS', message } }), { status: 429 }) : undefined,
    })
    window.history.replaceState(null, '', '/?workflow=builtin%3Atwo-steps')
    render(<App />)
    await screen.findByTestId('node-merge')
    const runBar = screen.getByRole('region', { name: 'Run' })
    fireEvent.change(within(runBar).getByRole('textbox', { name: /^query/ }), { target: { value: 'x' } })
    fireEvent.click(within(runBar).getByRole('button', { name: 'Run' }))
    expect(await within(runBar).findByText(message)).toBeTruthy()
    expect(screen.getByTestId('run-status').textContent).toBe('Ready')
  })

  it('after a reload, follows a run of the open workflow that is still going', async () => {
    const server = installFakeServer({
      runs: [{ runId: 'run-9', workflow: 'Two Steps', workflowId: 'builtin:two-steps', status: 'running', startedAt: Date.now() }],
    })
    window.history.replaceState(null, '', '/?workflow=builtin%3Atwo-steps')
    const app = createApp()
    render(<App app={app} />)
    await screen.findByTestId('node-merge')
    await waitFor(() => expect(screen.getByTestId('run-status').textContent).toBe('Running'))
    const socket = server.sockets[server.sockets.length - 1]
    await waitFor(() => expect(socket.sent).toContainEqual({ type: 'subscribe', runId: 'run-9' }))

    // An error about another run changes nothing; one naming the followed run ends it.
    act(() => socket.push({ type: 'error', code: 'NOT_FOUND', message: 'no run "run-8"', runId: 'run-8' }))
    expect(screen.getByTestId('run-status').textContent).toBe('Running')
    act(() => socket.push({ type: 'error', code: 'NOT_FOUND', message: 'no run "run-9"', runId: 'run-9' }))
    expect(app.stores.run.getState().status).toBe('failed')
    expect(app.stores.run.getState().error).toMatch(/no longer has this run/)
  })
})
