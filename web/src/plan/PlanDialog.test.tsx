import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { GraphView } from '../api/types'
import { graph, installFakeServer } from '../test/fakeServer'
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

describe('the price table', () => {
  it('opens from the plan and lists each model with its rates, date and source', async () => {
    const table = {
      pricedAt: '2026-11-28',
      models: [
        {
          model: 'voyage-4-lite',
          vendor: 'voyage',
          use: 'embedding',
          inputPerMTok: 0.02,
          outputPerMTok: 0,
          pricedAt: '2026-11-28',
          source: 'https://docs.voyageai.com/docs/pricing',
        },
        {
          model: 'gpt-4o',
          vendor: 'openai',
          use: 'llm',
          inputPerMTok: 2.5,
          outputPerMTok: 10,
          pricedAt: '2026-11-28',
          source: 'https://openai.com/api/pricing',
        },
        { model: 'house-llm', inputPerMTok: 1, outputPerMTok: 2, pricedAt: '.vai.json' },
      ],
    }
    installFakeServer({ respond: ({ path }) => (path === '/api/pricing' ? Response.json(table) : undefined) })
    show(NO_ESTIMATE)
    fireEvent.click(screen.getByRole('button', { name: 'Prices' }))
    const prices = await screen.findByRole('table', { name: 'Price table' })
    expect(screen.getByRole('dialog', { name: 'Prices (as of 2026-11-28)' })).toBeTruthy()
    expect(within(prices).getByRole('row', { name: 'voyage-4-lite embedding $0.02 — 2026-11-28' })).toBeTruthy()
    expect(within(prices).getByRole('row', { name: 'gpt-4o llm $2.5 $10 2026-11-28' })).toBeTruthy()
    expect(within(prices).getByRole('row', { name: 'house-llm $1 $2 .vai.json' })).toBeTruthy()
    expect(within(prices).getAllByRole('link')[1].getAttribute('href')).toBe('https://openai.com/api/pricing')
  })
})
