import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { installFakeServer } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import { first, historyRoutes, second, WORKFLOW_ID } from './fixtures'
import RunsPanel from './RunsPanel'

let server: ReturnType<typeof installFakeServer>
let app: App

beforeEach(async () => {
  window.history.replaceState(null, '', '/')
  server = installFakeServer({ respond: historyRoutes() })
  app = createApp()
  await app.open.byId(WORKFLOW_ID)
})

const rows = () => screen.getAllByTestId('history-run')
const rowOf = (runId: string) => rows().find((r) => r.dataset.runId === runId)!
const listCalls = () => server.calls.filter((c) => c.path.startsWith('/api/history?') || c.path === '/api/history').map((c) => c.path)

describe('RunsPanel', () => {
  it('lists the open workflow’s runs, newest first, each with status, time, cost, inputs and where it came from', async () => {
    renderWithApp(<RunsPanel />, app)
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(listCalls()).toEqual(['/api/history?workflowId=builtin%3Atwo-steps'])
    expect(rows().map((r) => r.dataset.runId)).toEqual(['r-third', 'r-second', 'r-first'])
    const one = rowOf('r-first')
    expect(one.textContent).toContain('Completed')
    expect(one.textContent).toContain('1.20 s')
    expect(one.textContent).toContain('$0.0012')
    expect(one.textContent).toContain('query=auth, limit=3')
    // Restarted from the first run, which is listed: named by when it ran.
    expect(within(rowOf('r-third')).getByTestId('history-run-from').textContent).toMatch(/^restarted from merge of the run of /)
    expect(screen.getByRole('heading', { name: /Runs of Two Steps/ })).toBeTruthy()
  })

  it('filters by text at once, and by status through the server', async () => {
    renderWithApp(<RunsPanel />, app)
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter runs' }), { target: { value: 'limit=6' } })
    expect(rows().map((r) => r.dataset.runId)).toEqual(['r-second'])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter runs' }), { target: { value: 'nothing of the kind' } })
    expect(screen.getByText('No run matches.')).toBeTruthy()

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }))
    fireEvent.click(await screen.findByRole('option', { name: 'Failed' }))
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/history?workflowId=builtin%3Atwo-steps&status=failed'))
    expect(await screen.findByText('No failed runs.')).toBeTruthy()
  })

  it('compares two ticked runs, and opens one with a click', async () => {
    renderWithApp(<RunsPanel />, app)
    await waitFor(() => expect(rows()).toHaveLength(3))
    const compare = screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement
    expect(compare.disabled).toBe(true)
    fireEvent.click(within(rowOf('r-second')).getByRole('checkbox'))
    expect(screen.getByText('Tick one more run to compare.')).toBeTruthy()
    fireEvent.click(within(rowOf('r-first')).getByRole('checkbox'))
    expect(compare.disabled).toBe(false)
    fireEvent.click(compare)
    await waitFor(() => expect(app.stores.history.getState().comparison?.diff).toBeTruthy())
    expect(app.stores.history.getState().comparison).toMatchObject({ a: first.runId, b: second.runId })

    fireEvent.click(within(rowOf('r-first')).getByRole('button'))
    await waitFor(() => expect(app.stores.run.getState().runId).toBe('r-first'))
    await waitFor(() => expect(within(rowOf('r-first')).getByRole('button').getAttribute('aria-current')).toBe('page'))
    // The panel lists the open past run's workflow, as before.
    expect(listCalls().every((p) => p.includes('workflowId=builtin%3Atwo-steps'))).toBe(true)
  })

  it('lists again when a run it shows ends', async () => {
    renderWithApp(<RunsPanel />, app)
    await waitFor(() => expect(rows()).toHaveLength(3))
    const before = listCalls().length
    act(() => app.stores.run.getState().begin('r-live', WORKFLOW_ID))
    act(() => app.stores.run.getState().apply({ type: 'event', runId: 'r-live', seq: 1, event: { type: 'run_finished', status: 'completed', durationMs: 5 } }))
    await waitFor(() => expect(listCalls().length).toBe(before + 1))
  })

  it('lists every workflow’s runs, each named, when the open one is not from the library', async () => {
    await app.open.text(JSON.stringify({ name: 'Pasted', steps: [] }), 'pasted.json')
    renderWithApp(<RunsPanel />, app)
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(listCalls().at(-1)).toBe('/api/history')
    expect(screen.getByText('This workflow is not in the library, so every workflow’s runs are listed.')).toBeTruthy()
    expect(rowOf('r-first').textContent).toContain('Two Steps')
  })

  it('says when there are no runs yet', async () => {
    installFakeServer({ respond: ({ path }) => (path.startsWith('/api/history') ? new Response(JSON.stringify({ runs: [] })) : undefined) })
    renderWithApp(<RunsPanel />, app)
    expect(await screen.findByText('No runs yet. Run the workflow and it is kept here.')).toBeTruthy()
  })
})
