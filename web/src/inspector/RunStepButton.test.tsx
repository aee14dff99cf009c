import { fireEvent, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { GraphView } from '../api/types'
import { createApp, type App } from '../app/createApp'
import { definition, graph, installFakeServer } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import RunStepButton from './RunStepButton'

// search reads only workflow inputs; merge reads search.
const wired: GraphView = {
  ...graph,
  edges: [
    { id: 'e1', source: '__inputs', target: 'search', kind: 'input', label: 'inputs.query', field: 'inputs.query' },
    { id: 'e2', source: 'search', target: 'merge', kind: 'reference', label: 'search.output.results', field: 'inputs.arrays[0]' },
  ],
}

const button = () => screen.getByRole('button', { name: 'Run this step' })

describe('Run this step', () => {
  let server: ReturnType<typeof installFakeServer>
  let app: App
  beforeEach(() => {
    server = installFakeServer()
    app = createApp()
    app.stores.workflow.setState({ current: { key: 'builtin:two-steps', id: 'builtin:two-steps', label: 'Two Steps', text: '', definition }, graph: wired })
  })
  const started = () => server.calls.filter((c) => c.method === 'POST' && c.path === '/api/runs').map((c) => c.body)

  it('runs a step that reads only workflow inputs before any run, replaying nothing', async () => {
    renderWithApp(<RunStepButton stepId="search" />, app)
    expect(button().hasAttribute('disabled')).toBe(false)
    fireEvent.click(button())
    await waitFor(() => expect(started()).toHaveLength(1))
    expect(started()[0]).toMatchObject({ step: 'search' })
    expect(started()[0]).not.toHaveProperty('fromRun')
  })

  it('waits for a first run for a step that reads another step, and says which', () => {
    renderWithApp(<RunStepButton stepId="merge" />, app)
    expect(button().hasAttribute('disabled')).toBe(true)
    expect(screen.getByLabelText('Run the workflow once first: this step reads from search')).toBeTruthy()
  })

  it('after a run, reruns any step from that run', async () => {
    app.stores.run.setState({ runId: 'run-0', status: 'completed' })
    renderWithApp(<RunStepButton stepId="merge" />, app)
    fireEvent.click(button())
    await waitFor(() => expect(started()).toHaveLength(1))
    expect(started()[0]).toMatchObject({ step: 'merge', fromRun: 'run-0' })
    // The new run knows where its replayed steps come from.
    await waitFor(() => expect(app.stores.run.getState()).toMatchObject({ runId: 'run-1', fromRun: 'run-0' }))
  })
})
