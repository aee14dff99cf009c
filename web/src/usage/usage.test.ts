import { describe, expect, it } from 'vitest'
import type { Cost } from '../api/types'
import { costText, formatTokens, formatUsd, usageLine, usageParts, formatUsdDelta } from './usage'

const priced = (usd: number | null, extra: Partial<Cost> = {}): Cost => ({ usd, pricedAt: '2026-11-01', ...extra })

describe('formatUsd', () => {
  it('keeps two significant digits below a dollar and cents above', () => {
    expect(formatUsd(0.0021)).toBe('$0.0021')
    expect(formatUsd(0.012345)).toBe('$0.012')
    expect(formatUsd(0.5)).toBe('$0.50')
    expect(formatUsd(1.234)).toBe('$1.23')
    expect(formatUsd(12)).toBe('$12.00')
  })

  it('writes free as $0 and a tiny amount as less than the smallest shown', () => {
    expect(formatUsd(0)).toBe('$0')
    expect(formatUsd(0.00001)).toBe('<$0.0001')
  })
})

describe('costText', () => {
  it('shows nothing without a cost', () => {
    expect(costText(undefined)).toBeUndefined()
  })

  it('never shows an unpriced model as free: a dash, with the reason as the tooltip', () => {
    expect(costText(priced(null, { reason: 'no price for mystery-model', unpriced: ['mystery-model'] }))).toEqual({
      text: '—',
      title: 'no price for mystery-model',
    })
    expect(costText(priced(null, { unpriced: ['mystery-model'] }))?.title).toBe('No known price for mystery-model')
    expect(costText(priced(null))?.title).toBe('No known price')
  })

  it('says a partly priced cost is at least its amount', () => {
    const shown = costText(priced(0.0021, { unpriced: ['mystery-model'] }))
    expect(shown?.text).toBe('≥$0.0021')
    expect(shown?.title).toContain('mystery-model')
    // Too little priced to say "at least": unknown.
    expect(costText(priced(0.00001, { unpriced: ['mystery-model'] }))?.text).toBe('$?')
  })

  it('gives the rates and the date of the prices as the tooltip', () => {
    expect(costText(priced(0.0021, { inputPerMTok: 0.12, outputPerMTok: 3 }))).toEqual({
      text: '$0.0021',
      title: 'priced 2026-11-01 at $0.12/M in, $3.00/M out',
    })
    expect(costText(priced(0))).toEqual({ text: '$0', title: 'priced 2026-11-01' })
  })
})

describe('usage', () => {
  it('abbreviates token counts', () => {
    expect([999, 1234, 12_345, 1_234_567].map(formatTokens)).toEqual(['999', '1.2k', '12k', '1.2M'])
  })

  it('lists the counts present in a fixed order, the cost last', () => {
    const usage = { embedTokens: 5100, llmOutputTokens: 340, llmInputTokens: 1200, rerankTokens: 0, requests: 3, cost: priced(0.0021) }
    expect(usageParts(usage).map((p) => p.label)).toEqual(['in', 'out', 'embed', 'cost'])
    expect(usageLine(usage)).toBe('in 1.2k · out 340 · embed 5.1k · $0.0021')
    expect(usageParts(usage)[0].title).toBe('LLM input tokens: 1,200')
  })

  it('is empty for no usage', () => {
    expect(usageLine(undefined)).toBe('')
    expect(usageLine({})).toBe('')
  })
})

describe('formatUsdDelta', () => {
  it('signs what B cost more or less than A, in the same amounts as a cost', () => {
    expect(formatUsdDelta(0.0012, 0.0033)).toBe('+$0.0021')
    expect(formatUsdDelta(1.5, 0.25)).toBe('−$1.25')
    expect(formatUsdDelta(0.1, 0.1)).toBe('±$0')
    expect(formatUsdDelta(0.0012, 0.0012 + 0.00000001)).toBe('+<$0.0001')
  })

  it('says nothing when a side has no known cost', () => {
    expect(formatUsdDelta(undefined, 0.1)).toBeUndefined()
    expect(formatUsdDelta(0.1, null)).toBeUndefined()
  })
})
