import { expect, it } from 'vitest'
import { formatCost, formatDollars, formatDuration, formatUsage, TAIL_CHARS, textTail } from './format'

it('formats durations for nodes', () => {
  expect(formatDuration(123)).toBe('123 ms')
  expect(formatDuration(0.4)).toBe('0 ms')
  expect(formatDuration(1234)).toBe('1.23 s')
  expect(formatDuration(12_345)).toBe('12.3 s')
  expect(formatDuration(125_000)).toBe('2 m 05 s')
})

it('keeps the end of a running step’s text on one line', () => {
  expect(textTail('  To rotate\n a key,\tcall it.  ')).toBe('To rotate a key, call it.')
  const long = `${'a'.repeat(200)} the newest words`
  const tail = textTail(long)
  expect(tail.startsWith('…')).toBe(true)
  expect(tail.endsWith('the newest words')).toBe(true)
  expect(tail.length).toBe(TAIL_CHARS + 1)
  // Not half an emoji at the cut.
  expect(textTail(`${'😀'.repeat(100)}`).codePointAt(1)).toBe(0x1f600)
})

it('shows tokens and cost, and an unpriced model as unknown, never free', () => {
  expect(formatDollars(0.00213)).toBe('$0.0021')
  expect(formatDollars(12.345)).toBe('$12.35')
  expect(formatDollars(0.00001)).toBe('<$0.0001')
  expect(formatDollars(0)).toBe('$0')
  const priced = { usd: 0.0021, pricedAt: '2026-11-28' }
  expect(formatUsage({ llmInputTokens: 812, llmOutputTokens: 96, requests: 1, cost: priced })).toBe('812→96 tok · $0.0021')
  expect(formatUsage({ embedTokens: 12, rerankTokens: 3 })).toBe('15 tok')
  expect(formatUsage({})).toBe('')
  expect(formatCost({ usd: null, pricedAt: '2026-11-28', unpriced: ['gpt-9'] })).toBe('$? (gpt-9 unpriced)')
  expect(formatCost({ usd: 0.5, pricedAt: '2026-11-28', unpriced: ['gpt-9'] })).toBe('$0.5000 + ? (gpt-9 unpriced)')
})
