import { describe, expect, it } from 'vitest'
import type { HistoryEntry } from '../api/types'
import { filterRuns, relativeTime, shortRunId, statusColor, statusLabel } from './runList'

const run = (over: Partial<HistoryEntry>): HistoryEntry => ({
  runId: 'r18c0a1b2c3d4e5f',
  workflow: 'Multi-Collection Search',
  workflowId: 'builtin:multi-collection-search',
  status: 'completed',
  startedAt: 0,
  inputs: 'query=auth, limit=3',
  ...over,
})

describe('filterRuns', () => {
  const runs = [
    run({ runId: 'a', inputs: 'query=how does auth work, limit=3' }),
    run({ runId: 'b', inputs: 'query=rate limits, limit=6', status: 'failed', error: 'rerank: timeout' }),
    run({ runId: 'c', inputs: 'query=auth, limit=6', from: { runId: 'a', step: 'rerank_all' } }),
  ]
  const ids = (query: string) => filterRuns(runs, query).map((r) => r.runId)

  it('keeps every run for an empty query', () => {
    expect(ids('  ')).toEqual(['a', 'b', 'c'])
  })

  it('matches every word, anywhere in the row, in any case', () => {
    expect(ids('AUTH limit=6')).toEqual(['c'])
    expect(ids('failed')).toEqual(['b'])
    expect(ids('timeout')).toEqual(['b'])
    expect(ids('restarted rerank_all')).toEqual(['c'])
    expect(ids('nothing like this')).toEqual([])
  })
})

describe('how a run reads', () => {
  const now = Date.UTC(2026, 10, 28, 12, 0, 0)

  it('says when it ran relative to now', () => {
    expect(relativeTime(now - 20_000, now)).toBe('just now')
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago')
    expect(relativeTime(now - 30 * 3_600_000, now)).toBe('yesterday')
    expect(relativeTime(now - 4 * 86_400_000, now)).toBe('4 days ago')
    expect(relativeTime(now - 40 * 86_400_000, now)).toMatch(/2026/)
  })

  it('names and colours any status, one it does not know included', () => {
    expect([statusLabel('completed'), statusColor('completed')]).toEqual(['Completed', 'success'])
    expect([statusLabel('failed'), statusColor('failed')]).toEqual(['Failed', 'error'])
    expect([statusLabel('someday'), statusColor('someday')]).toEqual(['someday', 'default'])
  })

  it('shortens a long run id and keeps a short one', () => {
    expect(shortRunId('r18c0a1b2c3d4e5f')).toBe('r18c…3d4e5f')
    expect(shortRunId('run-1')).toBe('run-1')
  })
})
