import { describe, expect, it } from 'vitest'
import type { ResultsDiff, RunDiff, StepDiff } from '../api/types'
import {
  changeCounts,
  differingSteps,
  durationDelta,
  fieldLine,
  formatScore,
  movementLabel,
  movementText,
  olderFirst,
  resultRows,
  resultsLine,
  scoreDeltaText,
  stepChange,
  stepLine,
  sizeText,
  valueText,
} from './diffView'

const step = (over: Partial<StepDiff>): StepDiff => ({
  id: 'rerank_all',
  name: 'Rerank',
  tool: 'rerank',
  change: 'changed',
  statusA: 'completed',
  statusB: 'completed',
  inputs: [],
  outputChanged: false,
  outputs: [],
  ...over,
})

/** limit 3 → 6 on multi-collection-search: the rerank's list grew and reordered. */
const results: ResultsDiff = {
  field: 'results',
  entered: [
    { key: 'd7', label: 'architecture/queues.md', rankB: 2, scoreB: 0.71 },
    { key: 'd9', label: 'api_docs/limits.md', rankB: 5, scoreB: 0.4 },
  ],
  left: [{ key: 'd3', label: 'api_docs/old.md', rankA: 3, scoreA: 0.5 }],
  moved: [
    { key: 'd1', label: 'api_docs/auth.md', rankA: 2, rankB: 1, scoreA: 0.8, scoreB: 0.83 },
    { key: 'd2', label: 'api_docs/keys.md', rankA: 1, rankB: 3, scoreA: 0.9, scoreB: 0.9 },
    { key: 'd4', label: 'architecture/tokens.md', rankA: 4, rankB: 4, scoreA: 0.45, scoreB: 0.44 },
  ],
  unchanged: 0,
}

describe('resultRows', () => {
  const rows = resultRows(results)

  it('lists what B holds by its rank, then what left by the rank it had in A', () => {
    expect(rows.map((r) => [r.key, r.rankA, r.rankB])).toEqual([
      ['d1', 2, 1],
      ['d7', undefined, 2],
      ['d2', 1, 3],
      ['d4', 4, 4],
      ['d9', undefined, 5],
      ['d3', 3, undefined],
    ])
  })

  it('marks each document by where it went and by how many places', () => {
    expect(rows.map((r) => [r.mark, r.places, movementText(r)])).toEqual([
      ['up', 1, '↑1'],
      ['entered', 0, 'new'],
      ['down', -2, '↓2'],
      ['rescored', 0, '='],
      ['entered', 0, 'new'],
      ['left', 0, 'gone'],
    ])
    expect(rows.map(movementLabel)).toEqual([
      'up 1 place, rank 2 → 1',
      'entered at rank 2',
      'down 2 places, rank 1 → 3',
      'same rank (4), another score',
      'entered at rank 5',
      'left (was rank 3)',
    ])
  })

  it('gives a score delta only where both runs scored the document', () => {
    expect(rows.map((r) => scoreDeltaText(r.scoreDelta))).toEqual(['+0.030', undefined, '±0.000', '−0.010', undefined, undefined])
    expect(formatScore(rows[1].scoreB)).toBe('0.710')
    expect(formatScore(rows[1].scoreA)).toBe('—')
  })

  it('is empty when only the count of unchanged documents is left', () => {
    expect(resultRows({ field: 'results', entered: [], left: [], moved: [], unchanged: 6 })).toEqual([])
  })
})

describe('a step in brief', () => {
  it('reads an unknown kind of change as changed', () => {
    expect(stepChange(step({ change: 'renamed' }))).toBe('changed')
    expect(stepChange(step({ change: 'added' }))).toBe('added')
  })

  it('puts the result list, then the first changed input on the node line', () => {
    const limit = step({ inputs: [{ field: 'limit', a: 3, b: 6 }], outputChanged: true, results })
    expect(stepLine(limit)).toBe('2 entered · 1 left · 3 moved · limit 3 → 6')
    expect(stepLine({ ...limit, statusB: 'failed' })).toBe('completed → failed · 2 entered · 1 left · 3 moved · limit 3 → 6')
    const more = step({
      inputs: [
        { field: 'query', a: 'a', b: 'b' },
        { field: 'limit', a: 3, b: 6 },
      ],
    })
    expect(stepLine(more)).toBe('query "a" → "b" +1 more')
  })

  it('names a changed status and output fields without a result list', () => {
    expect(stepLine(step({ statusB: 'failed' }))).toBe('completed → failed')
    expect(stepLine(step({ outputChanged: true, outputs: [{ field: 'text', a: 'x', b: 'y' }] }))).toBe('output: text')
    expect(stepLine(step({ inputs: [{ field: 'prompt', a: 'x', b: 'y' }], outputChanged: true }))).toBe('prompt "x" → "y" · output changed')
    expect(stepLine(step({ outputChanged: true }))).toBe('output changed')
    expect(stepLine(step({ change: 'same' }))).toBe('no change')
    expect(stepLine(step({ change: 'added', statusA: undefined }))).toBe('not in run A’s workflow')
  })
})

describe('values and deltas', () => {
  it('writes a value as one line of JSON, absent when a side lacks it, cut when long', () => {
    expect(valueText(6)).toBe('6')
    expect(valueText('six')).toBe('"six"')
    expect(valueText(undefined)).toBe('absent')
    expect(valueText({ a: [1, 2] })).toBe('{"a":[1,2]}')
    expect(valueText('x'.repeat(200), 10)).toBe('"xxxxxxxx…')
    // A list or object too long for the line reads by its size.
    const hits = [{ text: 'a long passage' }, { text: 'another long passage' }]
    expect(valueText(hits, 20)).toBe('2 items')
    expect(valueText([hits, hits, [hits[0]]], 20)).toBe('3 lists (2 + 2 + 1 items)')
    expect(valueText({ a: 'a long value', b: 'another' }, 10)).toBe('{2 fields}')
    expect(fieldLine({ field: 'documents', a: hits, b: [...hits, ...hits] })).toBe('documents 2 items → 4 items')
    expect(fieldLine({ field: 'topK', b: 5 })).toBe('topK absent → 5')
  })

  it('sizes lists and objects, not other values', () => {
    expect(sizeText([])).toBe('0 items')
    expect(sizeText([1])).toBe('1 item')
    expect(sizeText({ a: 1 })).toBe('{1 field}')
    expect(sizeText('text')).toBeUndefined()
  })

  it('signs the time B took more or less than A', () => {
    expect(durationDelta(120, 340)).toBe('+220 ms')
    expect(durationDelta(3400, 2200)).toBe('−1.20 s')
    expect(durationDelta(5, 5)).toBe('±0 ms')
    expect(durationDelta(undefined, 5)).toBeUndefined()
  })

  it('counts the results that entered, left and moved, leaving out nothing-happened', () => {
    expect(resultsLine(results)).toBe('2 entered · 1 left · 3 moved')
    expect(resultsLine({ ...results, entered: [], moved: [] })).toBe('1 left')
    expect(resultsLine(undefined)).toBe('')
  })
})

describe('a whole diff', () => {
  const diff: RunDiff = {
    workflow: 'Multi-Collection Search',
    a: { runId: 'r1', status: 'completed', startedAt: 1 },
    b: { runId: 'r2', status: 'completed', startedAt: 2 },
    workflowChanges: [],
    inputs: [{ field: 'limit', a: 3, b: 6 }],
    steps: [
      step({ id: 's1', change: 'changed' }),
      step({ id: 's2', change: 'same' }),
      step({ id: 'new', change: 'added' }),
      step({ id: 'old', change: 'removed' }),
    ],
  }

  it('counts the steps by kind of change and lists those that differ', () => {
    expect(changeCounts(diff)).toEqual({ same: 1, changed: 1, added: 1, removed: 1 })
    expect(differingSteps(diff).map((s) => s.id)).toEqual(['s1', 'new', 'old'])
  })

  it('takes the run that started first as A', () => {
    const early = { runId: 'early', startedAt: 10 }
    const late = { runId: 'late', startedAt: 20 }
    expect(olderFirst(late, early)).toEqual([early, late])
    expect(olderFirst(early, late)).toEqual([early, late])
  })
})
