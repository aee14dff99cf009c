import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import { diff } from './fixtures'
import StepDiffView from './StepDiffView'

function compared(stepId: string, shown = diff.b.runId) {
  const app = createApp()
  app.stores.history.setState({ comparison: { a: diff.a.runId, b: diff.b.runId, diff, loading: false } })
  app.stores.run.setState({ runId: shown, status: 'completed' })
  return renderWithApp(<StepDiffView stepId={stepId} />, app)
}

describe('StepDiffView', () => {
  it('shows a changed step side by side: time, inputs, results by rank and other output fields', () => {
    compared('search')
    const view = screen.getByTestId('step-diff-view')
    expect(view.dataset.change).toBe('changed')
    expect(view.textContent).toContain('800 ms → 950 ms (+150 ms)')

    const inputs = screen.getByRole('table', { name: 'Changed inputs' })
    expect(
      within(inputs)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['FieldRun ARun B', 'limit36'])

    expect(screen.getByTestId('results-diff').textContent).toMatch(/^1 entered · 1 moved · 1 unchanged in results/)
    const docs = screen.getAllByTestId('result-row')
    expect(docs.map((r) => [r.dataset.mark, r.dataset.rankA ?? '', r.dataset.rankB ?? ''])).toEqual([
      ['entered', '', '2'],
      ['down', '2', '3'],
    ])
    expect(docs[0].textContent).toContain('architecture/queues.md')
    expect(within(docs[0]).getByLabelText('entered at rank 2').textContent).toBe('new')
    expect(within(docs[1]).getByLabelText('down 1 place, rank 2 → 3').textContent).toBe('↓1')
    expect(docs[1].textContent).toContain('±0.000')

    const outputs = screen.getByRole('table', { name: 'Changed output fields' })
    expect(within(outputs).getByText('resultCount')).toBeTruthy()
  })

  it('gives a long value by its size, opening to its whole JSON', () => {
    const hits = Array.from({ length: 12 }, (_, i) => ({ source: `doc-${i}.md`, text: `passage number ${i}` }))
    const app = createApp()
    const step = { ...diff.steps[1], change: 'changed', inputs: [{ field: 'documents', a: hits.slice(0, 6), b: hits }] }
    app.stores.history.setState({ comparison: { a: diff.a.runId, b: diff.b.runId, diff: { ...diff, steps: [step] }, loading: false } })
    app.stores.run.setState({ runId: diff.b.runId, status: 'completed' })
    renderWithApp(<StepDiffView stepId="merge" />, app)
    const row = within(screen.getByRole('table', { name: 'Changed inputs' })).getAllByRole('row')[1]
    const [a, b] = within(row).getAllByRole('group')
    expect(a.querySelector('summary')?.textContent).toBe('6 items')
    expect(b.querySelector('summary')?.textContent).toBe('12 items')
    expect(b.querySelector('pre')?.textContent).toContain('passage number 11')
  })

  it('says a step is the same in both runs', () => {
    compared('merge')
    expect(screen.getByTestId('step-diff-view').textContent).toContain('The same in both runs')
    expect(screen.queryByRole('table')).toBeNull()
  })

  it('shows nothing unless run B is the run shown', () => {
    compared('search', 'r-other')
    expect(screen.queryByTestId('step-diff-view')).toBeNull()
  })
})
