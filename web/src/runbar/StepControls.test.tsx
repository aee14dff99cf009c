import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { useBreakpointStore } from '../state/breakpointStore'
import { useRunStore } from '../state/runStore'
import { useWorkflowStore } from '../state/workflowStore'
import { definition, graph, installFakeServer } from '../test/fakeServer'
import RunBar from './RunBar'

function pauseBefore(stepId: string, seq: number) {
  act(() => useRunStore.getState().apply({ type: 'event', runId: 'run-1', seq, event: { type: 'paused', stepId, name: stepId, tool: 't', breakpoint: false } }))
}

describe('the run bar’s step-through controls', () => {
  let server: ReturnType<typeof installFakeServer>
  const resumes = () => server.calls.filter((c) => c.path === '/api/runs/run-1/resume')

  beforeEach(() => {
    localStorage.clear()
    window.history.replaceState(null, '', '/')
    server = installFakeServer({
      respond: ({ path }) =>
        path === '/api/runs/run-1/resume'
          ? new Response(JSON.stringify({ runId: 'run-1', status: 'running', stepId: 'search', action: 'next' }), { status: 202 })
          : undefined,
    })
    useWorkflowStore.getState().setOpened({
      current: { id: 'builtin:two-steps', key: 'builtin:two-steps', label: 'Two Steps', text: JSON.stringify(definition), definition },
      graph,
      diagnostics: [],
    })
  })

  it('Step starts the run pausing before each step, with the breakpoints', async () => {
    render(<RunBar />)
    const runBar = screen.getByRole('region', { name: 'Run' })
    fireEvent.change(within(runBar).getByRole('textbox', { name: /^query/ }), { target: { value: 'q' } })
    act(() => useBreakpointStore.getState().toggle('merge'))
    await act(async () => fireEvent.click(within(runBar).getByRole('button', { name: 'Step' })))
    const start = server.calls.find((c) => c.path === '/api/runs' && c.method === 'POST')
    expect(start?.body).toMatchObject({ stepThrough: { pauseEach: true, breakpoints: ['merge'], paceMs: 0 } })
  })

  it('while paused: says where, selects the step, and Next / Continue / Space resume it', async () => {
    useRunStore.getState().begin('run-1', 'builtin:two-steps')
    render(<RunBar />)
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull()
    pauseBefore('search', 1)
    expect(screen.getByTestId('run-note').textContent).toBe('Paused before Search it')
    expect(useWorkflowStore.getState().selected).toBe('search')
    const next = screen.getByRole('button', { name: 'Next' })
    expect(next.getAttribute('aria-keyshortcuts')).toBe('Space ArrowRight')

    await act(async () => fireEvent.click(next))
    expect(resumes().map((c) => c.body)).toEqual([{ action: 'next', breakpoints: [] }])

    await act(async () => fireEvent.keyDown(document.body, { key: ' ' }))
    await act(async () => fireEvent.keyDown(document.body, { key: 'ArrowRight' }))
    expect(resumes()).toHaveLength(3)

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Continue' })))
    expect(resumes()[3].body).toEqual({ action: 'continue', breakpoints: [] })

    act(() => useRunStore.getState().apply({ type: 'event', runId: 'run-1', seq: 2, event: { type: 'resumed', stepId: 'search', action: 'continue' } }))
    expect(screen.queryByTestId('run-note')).toBeNull()
    await act(async () => fireEvent.keyDown(document.body, { key: ' ' }))
    expect(resumes()).toHaveLength(4)
  })

  it('B toggles the selected step’s breakpoint', () => {
    render(<RunBar />)
    act(() => useWorkflowStore.getState().select('merge'))
    fireEvent.keyDown(document.body, { key: 'b' })
    expect(useBreakpointStore.getState().ids).toEqual(['merge'])
    act(() => useWorkflowStore.getState().select('__inputs'))
    fireEvent.keyDown(document.body, { key: 'b' })
    expect(useBreakpointStore.getState().ids).toEqual(['merge'])
  })

  it('says why a run ended when the server gave a reason', () => {
    useRunStore.getState().begin('run-1', 'builtin:two-steps')
    render(<RunBar />)
    const error = 'the run was paused for 10 minutes without Next or Continue'
    act(() =>
      useRunStore.getState().apply({ type: 'event', runId: 'run-1', seq: 1, event: { type: 'run_finished', status: 'cancelled', durationMs: 5, error } }),
    )
    expect(screen.getByTestId('run-note').textContent).toBe(error)
  })
})
