import { act, fireEvent, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { definition, graph, installFakeServer } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import RunBar from './RunBar'

function pauseBefore(app: App, stepId: string, seq: number) {
  act(() =>
    app.stores.run.getState().apply({ type: 'event', runId: 'run-1', seq, event: { type: 'paused', stepId, name: stepId, tool: 't', breakpoint: false } }),
  )
}

describe('the run bar’s step-through controls', () => {
  let server: ReturnType<typeof installFakeServer>
  let app: App
  const resumes = () => server.calls.filter((c) => c.path === '/api/runs/run-1/resume')

  beforeEach(() => {
    localStorage.clear()
    window.history.replaceState(null, '', '/')
    app = createApp()
    server = installFakeServer({
      respond: ({ path }) =>
        path === '/api/runs/run-1/resume'
          ? new Response(JSON.stringify({ runId: 'run-1', status: 'running', stepId: 'search', action: 'next' }), { status: 202 })
          : undefined,
    })
    app.stores.workflow.getState().setOpened({
      current: { id: 'builtin:two-steps', key: 'builtin:two-steps', label: 'Two Steps', text: JSON.stringify(definition), definition },
      graph,
      diagnostics: [],
    })
  })

  it('Step starts the run pausing before each step, with the breakpoints', async () => {
    renderWithApp(<RunBar />, app)
    const runBar = screen.getByRole('region', { name: 'Run' })
    fireEvent.change(within(runBar).getByRole('textbox', { name: /^query/ }), { target: { value: 'q' } })
    act(() => app.stores.breakpoints.getState().toggle('merge'))
    await act(async () => fireEvent.click(within(runBar).getByRole('button', { name: 'Step' })))
    const start = server.calls.find((c) => c.path === '/api/runs' && c.method === 'POST')
    expect(start?.body).toMatchObject({ stepThrough: { pauseEach: true, breakpoints: ['merge'], paceMs: 0 } })
  })

  it('while paused: says where, selects the step, and Next / Continue / Space resume it', async () => {
    app.stores.run.getState().begin('run-1', 'builtin:two-steps')
    renderWithApp(<RunBar />, app)
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull()
    pauseBefore(app, 'search', 1)
    expect(screen.getByTestId('run-note').textContent).toBe('Paused before Search it')
    expect(app.stores.workflow.getState().selected).toBe('search')
    const next = screen.getByRole('button', { name: 'Next' })
    expect(next.getAttribute('aria-keyshortcuts')).toBe('Space ArrowRight')

    await act(async () => fireEvent.click(next))
    expect(resumes().map((c) => c.body)).toEqual([{ action: 'next', breakpoints: [] }])

    await act(async () => fireEvent.keyDown(document.body, { key: ' ' }))
    await act(async () => fireEvent.keyDown(document.body, { key: 'ArrowRight' }))
    expect(resumes()).toHaveLength(3)

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Continue' })))
    expect(resumes()[3].body).toEqual({ action: 'continue', breakpoints: [] })

    act(() => app.stores.run.getState().apply({ type: 'event', runId: 'run-1', seq: 2, event: { type: 'resumed', stepId: 'search', action: 'continue' } }))
    expect(screen.queryByTestId('run-note')).toBeNull()
    await act(async () => fireEvent.keyDown(document.body, { key: ' ' }))
    expect(resumes()).toHaveLength(4)
  })

  it('B toggles the selected step’s breakpoint', () => {
    renderWithApp(<RunBar />, app)
    act(() => app.stores.workflow.getState().select('merge'))
    fireEvent.keyDown(document.body, { key: 'b' })
    expect(app.stores.breakpoints.getState().ids).toEqual(['merge'])
    act(() => app.stores.workflow.getState().select('__inputs'))
    fireEvent.keyDown(document.body, { key: 'b' })
    expect(app.stores.breakpoints.getState().ids).toEqual(['merge'])
  })

  it('says why a run ended when the server gave a reason', () => {
    app.stores.run.getState().begin('run-1', 'builtin:two-steps')
    renderWithApp(<RunBar />, app)
    const error = 'the run was paused for 10 minutes without Next or Continue'
    act(() =>
      app.stores.run.getState().apply({ type: 'event', runId: 'run-1', seq: 1, event: { type: 'run_finished', status: 'cancelled', durationMs: 5, error } }),
    )
    expect(screen.getByTestId('run-note').textContent).toBe(error)
  })
})
