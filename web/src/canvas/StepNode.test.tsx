import { act, cleanup, screen, within } from '@testing-library/react'
import { ReactFlowProvider, useStoreApi } from '@xyflow/react'
import { useEffect } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RunDiff, StepDiff, StepState } from '../api/types'
import type { AppStores } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import CanvasFlow from './CanvasFlow'
import { branchingGraph } from './fixtures'
import { MIN_GLOW_MS } from './useStepRun'

type FlowStore = ReturnType<typeof useStoreApi>
let flowStore: FlowStore | undefined
const keepStore = (store: FlowStore) => {
  flowStore = store
}

/** Hands React Flow's internal store to the test, to check the node list's identity. */
function Probe({ onStore }: { onStore: (store: FlowStore) => void }) {
  const store = useStoreApi()
  useEffect(() => onStore(store), [onStore, store])
  return null
}

function renderCanvas() {
  const rendered = renderWithApp(
    <ReactFlowProvider>
      <div style={{ width: 1000, height: 600 }}>
        <CanvasFlow graph={branchingGraph()} />
      </div>
      <Probe onStore={keepStore} />
    </ReactFlowProvider>,
  )
  return { ...rendered, stores: rendered.app.stores }
}

function setSteps(stores: AppStores, steps: Record<string, StepState>) {
  act(() => stores.run.setState({ steps }))
}

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('step nodes', () => {
  it('show name, tool, summary, category and badges', () => {
    renderCanvas()
    const node = screen.getByTestId('node-search')
    expect(node.dataset.status).toBe('idle')
    expect(node.dataset.category).toBe('retrieval')
    expect(node.textContent).toContain('search')
    expect(node.textContent).toContain('{{ inputs.query }}')
    expect(screen.getByTestId('node-answer').querySelector('[title^="Runs if"]')).not.toBeNull()
    expect(screen.getByTestId('node-fallback').textContent).toContain('each')
    expect(screen.getByTestId('node-__inputs').textContent).toMatch(/query\*\s*string/)
    expect(screen.getByTestId('node-__output').textContent).toContain('answer')
  })

  it('follow the run store without rebuilding the node list', () => {
    const { stores } = renderCanvas()
    const nodesBefore = flowStore!.getState().nodes
    const searchBefore = screen.getByTestId('node-search')
    const checkBefore = screen.getByTestId('node-check')

    setSteps(stores, { search: { status: 'running' }, check: { status: 'pending' } })
    expect(screen.getByTestId('node-search').dataset.status).toBe('running')
    expect(screen.getByTestId('node-search').dataset.glowing).toBe('true')
    expect(screen.getByTestId('node-check').dataset.status).toBe('pending')

    setSteps(stores, {
      search: { status: 'completed', durationMs: 123 },
      check: { status: 'failed', error: 'boom', durationMs: 4 },
      answer: { status: 'skipped', reason: 'condition was false' },
      fallback: { status: 'cancelled' },
    })
    const search = screen.getByTestId('node-search')
    expect(search.dataset.status).toBe('completed')
    expect(search.textContent).toContain('123 ms')
    const check = screen.getByTestId('node-check')
    expect(check.dataset.status).toBe('failed')
    expect(check.title).toBe('Failed: boom')
    expect(check.textContent).toContain('boom')
    const answer = screen.getByTestId('node-answer')
    expect(answer.dataset.status).toBe('skipped')
    expect(answer.title).toContain('condition was false')
    expect(screen.getByTestId('node-fallback').dataset.status).toBe('cancelled')

    // Same node list, same DOM elements: only the nodes' own subscriptions re-rendered.
    expect(flowStore!.getState().nodes).toBe(nodesBefore)
    expect(search).toBe(searchBefore)
    expect(check).toBe(checkBefore)
  })

  it('show the end of the text a running step writes, in place of its summary, until it ends', () => {
    const { stores } = renderCanvas()
    const answer = () => screen.getByTestId('node-answer')
    expect(within(answer()).queryByTestId('step-node-text')).toBeNull()
    setSteps(stores, { answer: { status: 'running', text: `${'earlier words '.repeat(20)}\nthe newest words` } })
    const line = within(answer()).getByTestId('step-node-text')
    expect(line.textContent?.startsWith('…')).toBe(true)
    expect(line.textContent?.endsWith('earlier words the newest words')).toBe(true)
    setSteps(stores, { answer: { status: 'completed', durationMs: 40 } })
    expect(within(answer()).queryByTestId('step-node-text')).toBeNull()
  })

  it('keep glowing for a moment after a very fast step', () => {
    vi.useFakeTimers()
    const { stores } = renderCanvas()
    setSteps(stores, { search: { status: 'running' } })
    setSteps(stores, { search: { status: 'completed', durationMs: 2 } })
    const node = screen.getByTestId('node-search')
    expect(node.dataset.status).toBe('completed')
    expect(node.dataset.glowing).toBe('true')
    act(() => vi.advanceTimersByTime(MIN_GLOW_MS + 10))
    expect(node.dataset.glowing).toBeUndefined()
  })

  it('glow even when start and finish land in one render', () => {
    vi.useFakeTimers()
    const { stores } = renderCanvas()
    act(() => {
      stores.run.setState({ steps: { check: { status: 'running' } } })
      stores.run.setState({ steps: { check: { status: 'completed', durationMs: 1 } } })
    })
    expect(screen.getByTestId('node-check').dataset.glowing).toBe('true')
  })

  it('select on click, and deselect on a pane click', () => {
    const { container, stores } = renderCanvas()
    act(() => screen.getByTestId('node-check').click())
    expect(stores.workflow.getState().selected).toBe('check')
    act(() => (container.querySelector('.react-flow__pane') as HTMLElement).click())
    expect(stores.workflow.getState().selected).toBeUndefined()
  })

  it('show a validation badge and, after an edit, a stale mark on a step that has run', () => {
    const { stores } = renderCanvas()
    act(() => stores.editSession.setState({ problems: { search: 'error', check: 'warning' } }))
    expect(screen.getByTestId('node-search').dataset.problem).toBe('error')
    expect(screen.getByTestId('node-problem-check').getAttribute('aria-label')).toBe('has warnings')
    act(() => stores.editSession.setState({ stale: { search: true, check: true } }))
    expect(screen.queryByText('stale')).toBeNull()
    setSteps(stores, { search: { status: 'completed', durationMs: 5 } })
    expect(screen.getByTestId('node-search').textContent).toContain('stale')
    expect(screen.getByTestId('node-check').textContent).not.toContain('stale')
  })

  it('toggle a breakpoint from their marker without selecting the node', () => {
    const { stores } = renderCanvas()
    const marker = screen.getByRole('button', { name: 'Breakpoint before search' })
    expect(marker.getAttribute('aria-pressed')).toBe('false')
    act(() => marker.click())
    expect(stores.breakpoints.getState().ids).toEqual(['search'])
    expect(marker.getAttribute('aria-pressed')).toBe('true')
    expect(stores.workflow.getState().selected).toBeUndefined()
    act(() => marker.click())
    expect(stores.breakpoints.getState().ids).toEqual([])
  })

  it('mark the step a run is paused before', () => {
    const { stores } = renderCanvas()
    act(() => stores.run.setState({ runId: 'r1', status: 'running', paused: { stepId: 'search', breakpoint: true, since: 0 } }))
    expect(screen.getByTestId('node-search').dataset.paused).toBe('true')
    expect(screen.getByTestId('node-search').textContent).toContain('paused')
    expect(screen.getByTestId('node-check').dataset.paused).toBeUndefined()
    act(() => stores.run.setState({ paused: undefined }))
    expect(screen.getByTestId('node-search').dataset.paused).toBeUndefined()
  })

  it('show a step waiting for a person, and the run waiting at it', () => {
    const { stores } = renderCanvas()
    act(() => stores.run.setState({ runId: 'r1', status: 'waiting', steps: { check: { status: 'waiting' } } }))
    const check = screen.getByTestId('node-check')
    expect(check.dataset.status).toBe('waiting')
    expect(screen.getByRole('img', { name: 'Waiting for a person' })).toBeTruthy()
    expect(check.textContent).toContain('Waiting for a person')
    expect(check.title).toContain('answer in the inspector')
    // The output is not there yet: the run may still go on.
    expect(screen.getByTestId('node-__output').dataset.status).toBe('pending')
  })

  it('badge steps that are being undone, undone, or could not be undone', () => {
    const { stores } = renderCanvas()
    setSteps(stores, {
      search: { status: 'completed', compensation: 'compensating' },
      check: { status: 'completed', compensation: 'compensated' },
      answer: { status: 'completed', compensation: 'compensation_failed', error: 'HTTP 503' },
    })
    expect(screen.getByTestId('node-search').textContent).toContain('undoing…')
    expect(screen.getByTestId('node-check').textContent).toContain('undone')
    expect(screen.getByText('undo failed').title).toBe('This step’s compensation failed: HTTP 503')
    expect(screen.getByTestId('node-fallback').textContent).not.toContain('undo')
  })

  it('mark how each step of run B compares with run A while two runs are compared', () => {
    const { stores } = renderCanvas()
    const step = (id: string, change: string): StepDiff => ({ id, name: id, tool: 't', change, inputs: [], outputChanged: false, outputs: [] })
    const diff: RunDiff = {
      workflow: 'w',
      a: { runId: 'rA', status: 'completed', startedAt: 1 },
      b: { runId: 'rB', status: 'completed', startedAt: 2 },
      workflowChanges: [],
      inputs: [],
      steps: [{ ...step('search', 'changed'), inputs: [{ field: 'limit', a: 3, b: 6 }] }, step('check', 'same'), step('answer', 'added')],
    }
    act(() => stores.history.setState({ comparison: { a: 'rA', b: 'rB', diff, loading: false } }))
    // Not while another run is shown.
    expect(screen.getByTestId('node-search').dataset.diff).toBeUndefined()
    act(() => stores.run.setState({ runId: 'rB', status: 'completed', steps: { search: { status: 'completed' } } }))
    const search = screen.getByTestId('node-search')
    expect(search.dataset.diff).toBe('changed')
    expect(screen.getByTestId('node-diff-search').textContent).toBe('changed')
    expect(within(search).getByTestId('step-diff').textContent).toBe('limit 3 → 6')
    expect(screen.getByTestId('node-check').dataset.diff).toBe('same')
    expect(screen.queryByTestId('node-diff-check')).toBeNull()
    expect(screen.getByTestId('node-diff-answer').textContent).toBe('added')
    // A step the diff does not know (the workflow drawn has more) is not marked.
    expect(screen.getByTestId('node-fallback').dataset.diff).toBeUndefined()
  })
})
