import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { GraphView } from '../api/types'
import { graph } from '../test/fakeServer'
import { createApp } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import PlanDialog from './PlanDialog'
import { NO_ESTIMATE } from './estimate'

function show(estimate: GraphView['estimate']) {
  const app = createApp()
  app.stores.workflow.setState({ graph: { ...graph, estimate }, diagnostics: [] })
  renderWithApp(<PlanDialog onClose={() => {}} />, app)
  return screen.queryByRole('table', { name: 'Estimated API calls' })
}

describe('PlanDialog', () => {
  it('shows the calls per run, and per item only when a step repeats', () => {
    const table = show({ fixed: { ...NO_ESTIMATE.fixed, embed: 2, vectorSearch: 2 }, perItem: NO_ESTIMATE.perItem })!
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'per run'])
    expect(within(table).getByRole('row', { name: 'Embedding 2' })).toBeTruthy()
    expect(within(table).queryByRole('row', { name: /LLM/ })).toBeNull()
  })

  it('adds a per-item column for forEach and loop steps', () => {
    const table = show({ fixed: { ...NO_ESTIMATE.fixed, embed: 1 }, perItem: { ...NO_ESTIMATE.perItem, llm: 1 } })!
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'per run', 'per forEach/loop item'])
    expect(within(table).getByRole('row', { name: 'LLM 0 1' })).toBeTruthy()
  })

  it('shows about what the calls cost, and why a price is missing', () => {
    show({
      fixed: { ...NO_ESTIMATE.fixed, embed: 1, llm: 1 },
      perItem: NO_ESTIMATE.perItem,
      cost: {
        fixed: { usd: 0.00006, pricedAt: '2026-11-28', unpriced: ['house-llm'], reason: 'no price is known for "house-llm".' },
        assumptions: 'at the price table of 2026-11-28, assuming 500 tokens an embedding call',
      },
    })
    expect(screen.getByText('≈ $? per run')).toBeTruthy()
    expect(screen.getByText('no price is known for "house-llm".')).toBeTruthy()
    expect(screen.getByText('Prices at the price table of 2026-11-28, assuming 500 tokens an embedding call.')).toBeTruthy()
  })

  it('says when nothing calls a provider', () => {
    expect(show(NO_ESTIMATE)).toBeNull()
    expect(screen.getByText('Estimated API calls: none')).toBeTruthy()
  })
})
