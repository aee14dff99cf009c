import { act, fireEvent, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../app/createApp'
import { installFakeServer } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import RunSummaryView from './RunSummaryView'
import StepRunDetails from './StepRunDetails'

/** A grounded offline `generate` step's output, as the server sends it. */
const generated = {
  text: '## Rotating a key\n\nCall **POST /keys/rotate** with the old key. [1]\n\n- The old key works for 24 hours. [2]',
  model: 'SmolLM2-135M-Instruct',
  method: 'extractive',
  citations: [
    { index: 1, source: 'Key rotation', passage: 'Call POST /keys/rotate with the old key.' },
    { index: 2, source: 'Key lifetimes', passage: 'The old key works for 24 hours.' },
  ],
}

function json(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
}

beforeEach(() => {
  installFakeServer()
})

describe('StepRunDetails', () => {
  it('says a step replayed for "Run this step" was reused from the earlier run, not how long it took', async () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      fromRun: 'run-0',
      status: 'completed',
      steps: { search: { status: 'completed', durationMs: 0, backend: 'replay' } },
    })
    renderWithApp(<StepRunDetails stepId="search" />, app)
    await screen.findByText('Resolved inputs')
    const facts = screen.getByTestId('step-run-facts').textContent
    expect(facts).toBe('Completed · reused from run run-0, not run again')
  })

  it('gives a step that ran its time and backend', async () => {
    const app = createApp()
    app.stores.run.setState({ runId: 'run-1', status: 'completed', steps: { search: { status: 'completed', durationMs: 12, backend: 'local' } } })
    renderWithApp(<StepRunDetails stepId="search" />, app)
    await screen.findByText('Resolved inputs')
    expect(screen.getByTestId('step-run-facts').textContent).toBe('Completed · 12 ms · via local')
  })

  it('shows the text a running step writes as it grows, then its output as Markdown above the inputs', async () => {
    installFakeServer({
      respond: ({ path }) =>
        path === '/api/runs/run-1/steps/answer/output'
          ? json({ stepId: 'answer', status: 'completed', inputs: { prompt: 'How do I rotate a key?' }, output: generated })
          : undefined,
    })
    const app = createApp()
    app.stores.run.setState({ runId: 'run-1', status: 'running', steps: { answer: { status: 'running', text: '## Rotating' } } })
    renderWithApp(<StepRunDetails stepId="answer" />, app)
    const live = screen.getByTestId('step-streaming-text')
    expect(live.getAttribute('aria-live')).toBe('polite')
    expect(live.textContent).toContain('## Rotating')
    act(() => app.stores.run.setState({ steps: { answer: { status: 'running', text: '## Rotating a key\n\nCall' } } }))
    expect(screen.getByTestId('step-streaming-text').textContent).toContain('Call')
    expect(screen.queryByTestId('markdown-output')).toBeNull()

    act(() =>
      app.stores.run.setState({
        status: 'completed',
        steps: { answer: { status: 'completed', durationMs: 900 } },
        stepOutputs: { answer: generated },
      }),
    )
    expect(screen.queryByTestId('step-streaming-text')).toBeNull()
    const rendered = screen.getByTestId('markdown-output')
    expect(within(rendered).getByRole('heading', { name: 'Rotating a key' })).toBeTruthy()
    expect(rendered.querySelector('strong')?.textContent).toBe('POST /keys/rotate')
    expect(rendered.querySelector('li')?.textContent).toContain('24 hours')
    expect(screen.getByTestId('answer-method').textContent).toBe('Quoted from the sources')
    // Above the inputs and the raw output, which stays there.
    const inputs = await screen.findByText('Resolved inputs')
    expect(rendered.compareDocumentPosition(inputs) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(screen.getByText('Output', { exact: true })).toBeTruthy()

    // [2] shows the source and passage it cites; again hides them.
    const cite = within(rendered).getByRole('button', { name: 'Citation 2: Key lifetimes' })
    fireEvent.click(cite)
    const citation = screen.getByTestId('markdown-citation')
    expect(citation.textContent).toContain('[2] Key lifetimes')
    expect(citation.textContent).toContain('The old key works for 24 hours.')
    fireEvent.click(cite)
    expect(screen.queryByTestId('markdown-citation')).toBeNull()
  })
})

describe('an evaluator step', () => {
  it('shows its scores as a table, and says when the small offline model gave them', () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      status: 'completed',
      steps: { judge: { status: 'completed', durationMs: 1200 } },
      stepOutputs: {
        judge: {
          scores: { accuracy: 4, clarity: 0.5 },
          reasoning: 'Agrees with the reference.',
          model: 'SmolLM2-135M-Instruct',
          provider: 'local',
          judge: 'local-small',
          notice: 'Scored by the small offline model (SmolLM2-135M): not a judgement to rely on.',
        },
      },
    })
    renderWithApp(<StepRunDetails stepId="judge" />, app)
    const table = screen.getByRole('table', { name: 'Scores' })
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent)
    expect(rows).toEqual(['accuracy4', 'clarity0.5'])
    expect(screen.getByText('Agrees with the reference.')).toBeTruthy()
    expect(screen.getByTestId('scores-notice').textContent).toContain('not a judgement to rely on')
  })

  it('shows no warning for a configured model, and no table for outputs without scores', () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      status: 'completed',
      steps: { judge: { status: 'completed' }, other: { status: 'completed' } },
      stepOutputs: { judge: { scores: { accuracy: 5 }, provider: 'openai' }, other: { scores: { a: 'high' } } },
    })
    const { unmount } = renderWithApp(<StepRunDetails stepId="judge" />, app)
    expect(screen.getByRole('table', { name: 'Scores' })).toBeTruthy()
    expect(screen.queryByTestId('scores-notice')).toBeNull()
    unmount()
    renderWithApp(<StepRunDetails stepId="other" />, app)
    expect(screen.queryByRole('table', { name: 'Scores' })).toBeNull()
  })
})

describe('an evaluator judged by the small offline model without a notice', () => {
  it('still says its scores are not reliable', () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      status: 'completed',
      steps: { judge: { status: 'completed' } },
      stepOutputs: { judge: { scores: { accuracy: 3 }, judge: 'local-small' } },
    })
    renderWithApp(<StepRunDetails stepId="judge" />, app)
    expect(screen.getByTestId('scores-notice').textContent).toContain('not reliable')
  })
})

describe('a router step', () => {
  it('shows the route it took, why and how, and the similarity of each route, not as scores', () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      status: 'completed',
      steps: { pick: { status: 'completed', durationMs: 40, usage: { embedTokens: 40, cost: { usd: 0, pricedAt: '2026-11-01' } } } },
      stepOutputs: {
        pick: {
          route: 'billing',
          reason: 'Closest to "Invoices and refunds"',
          method: 'similarity',
          scores: { technical: 0.31, billing: 0.72 },
          model: 'local',
        },
      },
    })
    renderWithApp(<StepRunDetails stepId="pick" />, app)
    expect(screen.getByTestId('route-chosen').textContent).toBe("Took billing, chosen by similarity between the input and each route's description (local)")
    expect(screen.getByText('Closest to "Invoices and refunds"')).toBeTruthy()
    const rows = within(screen.getByRole('table', { name: 'Route scores' }))
      .getAllByRole('row')
      .map((r) => r.textContent)
    expect(rows).toEqual(['routesimilarity', 'billing0.720', 'technical0.310'])
    expect(screen.queryByRole('table', { name: 'Scores' })).toBeNull()
    expect(screen.getByTestId('step-run-facts').textContent).toBe('Completed · 40 ms · embed 40 · $0')
  })
})

describe('an agent step', () => {
  it('shows its tool calls as a timeline, with the notice it carried', () => {
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      status: 'completed',
      steps: { helper: { status: 'completed', durationMs: 4000 } },
      stepOutputs: {
        helper: {
          content: 'Keys rotate every 90 days.',
          toolCalls: [
            { name: 'query', arguments: { query: 'rotation' }, ok: true, summary: '5 results, top score 0.91', durationMs: 120 },
            { name: 'rag-chat', arguments: {}, ok: false, summary: 'timed out', durationMs: 3000 },
          ],
          iterations: 10,
          model: 'local',
          notice: 'Stopped after 10 turns (maxIterations)',
        },
      },
    })
    renderWithApp(<StepRunDetails stepId="helper" />, app)
    expect(screen.getByTestId('agent-notice').textContent).toBe('Stopped after 10 turns (maxIterations)')
    expect(screen.getByText('2 tool calls in 10 turns')).toBeTruthy()
    const calls = within(screen.getByRole('list', { name: 'Tool calls' }))
    expect(calls.getByText('5 results, top score 0.91')).toBeTruthy()
    expect(calls.getByText('timed out')).toBeTruthy()
    fireEvent.click(calls.getAllByRole('button')[0])
    expect(calls.getByText('Arguments · query')).toBeTruthy()
    expect(calls.queryByText('Output')).toBeNull()
  })
})

describe('RunSummaryView', () => {
  it('renders the final output’s answer as Markdown, citing its sources, above the JSON', () => {
    installFakeServer()
    const app = createApp()
    app.stores.run.setState({
      runId: 'run-1',
      status: 'completed',
      durationMs: 1200,
      output: {
        answer: 'Use the **rotate** endpoint [1].\n\n<script>alert(1)</script>',
        sources: [{ source: 'key-rotation.md', text: 'Rotate keys often.' }],
        sourceCount: 1,
      },
    })
    renderWithApp(<RunSummaryView />, app)
    const rendered = screen.getByTestId('markdown-output')
    expect(rendered.querySelector('strong')?.textContent).toBe('rotate')
    expect(rendered.querySelector('script')).toBeNull()
    expect(rendered.textContent).toContain('<script>alert(1)</script>')
    fireEvent.click(within(rendered).getByRole('button', { name: 'Citation 1: key-rotation.md' }))
    expect(screen.getByTestId('markdown-citation').textContent).toContain('Rotate keys often.')
    const json = screen.getByText('Final output')
    expect(rendered.compareDocumentPosition(json) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })
})
