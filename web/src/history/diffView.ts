//! How a comparison of two runs reads (the server's `RunDiff`, run A the older, B the newer):
//! what kind of change each step had, a result list as one table of documents (rank A → rank B,
//! places moved, entered and left, score deltas), time deltas, values side by side, and the
//! one line a changed node shows on the canvas. Pure: the diff view and the nodes render these.
import type { FieldChange, JsonValue, ResultsDiff, RunDiff, StepDiff } from '../api/types'
import { formatDuration } from '../canvas/format'

export type StepChange = 'same' | 'changed' | 'added' | 'removed'

const CHANGES: readonly StepChange[] = ['same', 'changed', 'added', 'removed']

/** A step's kind of change; a kind this client does not know reads as `changed`. */
export function stepChange(step: StepDiff): StepChange {
  return (CHANGES as readonly string[]).includes(step.change) ? (step.change as StepChange) : 'changed'
}

/** How many steps had each kind of change. */
export function changeCounts(diff: RunDiff): Record<StepChange, number> {
  const counts: Record<StepChange, number> = { same: 0, changed: 0, added: 0, removed: 0 }
  for (const step of diff.steps) counts[stepChange(step)] += 1
  return counts
}

/** The steps that differ in any way, in the diff's order (B's, then those only A had). */
export function differingSteps(diff: RunDiff): StepDiff[] {
  return diff.steps.filter((s) => stepChange(s) !== 'same')
}

/** Where a document went between A and B. */
export type ResultMark = 'entered' | 'left' | 'up' | 'down' | 'rescored'

export interface ResultRow {
  key: string
  label: string
  rankA?: number
  rankB?: number
  mark: ResultMark
  /** Places moved, up positive; 0 when it entered, left or only its score changed. */
  places: number
  scoreA?: number
  scoreB?: number
  /** B's score less A's, when both have one. */
  scoreDelta?: number
}

/**
 * The documents of a result list that changed, as one table: those in B (moved or entered) by
 * B's rank, then those that left by A's rank. Documents at the same rank with the same score
 * are not rows (`results.unchanged` counts them).
 */
export function resultRows(results: ResultsDiff): ResultRow[] {
  const row = (m: ResultsDiff['moved'][number], entered: boolean): ResultRow => {
    const places = m.rankA !== undefined && m.rankB !== undefined ? m.rankA - m.rankB : 0
    const mark: ResultMark = entered ? 'entered' : places > 0 ? 'up' : places < 0 ? 'down' : 'rescored'
    const scoreDelta = m.scoreA !== undefined && m.scoreB !== undefined ? m.scoreB - m.scoreA : undefined
    return { key: m.key, label: m.label, rankA: m.rankA, rankB: m.rankB, mark, places, scoreA: m.scoreA, scoreB: m.scoreB, scoreDelta }
  }
  const inB = [...results.moved.map((m) => row(m, false)), ...results.entered.map((m) => row(m, true))].sort(
    (x, y) => (x.rankB ?? Infinity) - (y.rankB ?? Infinity),
  )
  const left = results.left
    .map((m): ResultRow => ({ key: m.key, label: m.label, rankA: m.rankA, mark: 'left', places: 0, scoreA: m.scoreA }))
    .sort((x, y) => (x.rankA ?? Infinity) - (y.rankA ?? Infinity))
  return [...inB, ...left]
}

/** The movement column: `↑2`, `↓1`, `new`, `gone`, or `=` for a score that changed in place. */
export function movementText(row: ResultRow): string {
  switch (row.mark) {
    case 'entered':
      return 'new'
    case 'left':
      return 'gone'
    case 'up':
      return `↑${row.places}`
    case 'down':
      return `↓${-row.places}`
    case 'rescored':
      return '='
  }
}

/** The movement in words, for a screen reader and the tooltip. */
export function movementLabel(row: ResultRow): string {
  const places = (n: number) => `${n} place${n === 1 ? '' : 's'}`
  switch (row.mark) {
    case 'entered':
      return `entered at rank ${row.rankB}`
    case 'left':
      return `left (was rank ${row.rankA})`
    case 'up':
      return `up ${places(row.places)}, rank ${row.rankA} → ${row.rankB}`
    case 'down':
      return `down ${places(-row.places)}, rank ${row.rankA} → ${row.rankB}`
    case 'rescored':
      return `same rank (${row.rankB}), another score`
  }
}

/** A score to three decimals, `—` when there is none. */
export function formatScore(score: number | undefined): string {
  return score === undefined ? '—' : score.toFixed(3)
}

/** A signed score change (`+0.031`, `−0.012`); undefined when there is none to give. */
export function scoreDeltaText(delta: number | undefined): string | undefined {
  if (delta === undefined) return undefined
  const rounded = Math.round(delta * 1000) / 1000
  if (rounded === 0) return '±0.000'
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(3)}`
}

/** How much longer (`+220 ms`) or shorter (`−1.20 s`) B took; undefined when a side has no time. */
export function durationDelta(a: number | undefined, b: number | undefined): string | undefined {
  if (a === undefined || b === undefined) return undefined
  const delta = b - a
  if (delta === 0) return '±0 ms'
  return `${delta > 0 ? '+' : '−'}${formatDuration(Math.abs(delta))}`
}

/** The most characters a value keeps in a side-by-side cell (its whole JSON is the tooltip). */
export const VALUE_CHARS = 120

/** A list or an object by its size: `12 items`, `2 lists (3 + 3 items)`, `{5 fields}`. */
export function sizeText(value: JsonValue): string | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(Array.isArray)) return `${value.length} lists (${value.map((v) => (v as JsonValue[]).length).join(' + ')} items)`
    return `${value.length} item${value.length === 1 ? '' : 's'}`
  }
  if (value !== null && typeof value === 'object') {
    const n = Object.keys(value).length
    return `{${n} field${n === 1 ? '' : 's'}}`
  }
  return undefined
}

/**
 * A value in one line: its JSON (strings quoted) when that fits in `max` characters, else a list
 * or object by its size and anything else cut; `absent` when a side lacks it.
 */
export function valueText(value: JsonValue | undefined, max = VALUE_CHARS): string {
  if (value === undefined) return 'absent'
  const text = JSON.stringify(value) ?? String(value)
  if (text.length <= max) return text
  return sizeText(value) ?? `${text.slice(0, max - 1)}…`
}

/** `limit 3 → 6`: a changed field in brief. */
export function fieldLine(change: FieldChange, max = 24): string {
  return `${change.field} ${valueText(change.a, max)} → ${valueText(change.b, max)}`
}

/** `3 entered · 1 left · 2 moved`, leaving out what did not happen. */
export function resultsLine(results: ResultsDiff | undefined): string {
  if (!results) return ''
  return [
    results.entered.length > 0 ? `${results.entered.length} entered` : undefined,
    results.left.length > 0 ? `${results.left.length} left` : undefined,
    results.moved.length > 0 ? `${results.moved.length} moved` : undefined,
  ]
    .filter(Boolean)
    .join(' · ')
}

/**
 * What changed in a step, in the one line its node has room for: the status when it changed, its
 * result list (what a person tuning a search asks first), the first changed input (and how many
 * more), else that the output changed.
 */
export function stepLine(step: StepDiff): string {
  switch (stepChange(step)) {
    case 'same':
      return 'no change'
    case 'added':
      return 'not in run A’s workflow'
    case 'removed':
      return 'not in run B’s workflow'
    case 'changed':
      break
  }
  const parts: string[] = []
  if (step.statusA !== step.statusB) parts.push(`${step.statusA ?? '—'} → ${step.statusB ?? '—'}`)
  const results = resultsLine(step.results)
  if (results) parts.push(results)
  const [first, ...more] = step.inputs
  if (first) parts.push(more.length > 0 ? `${fieldLine(first)} +${more.length} more` : fieldLine(first))
  if (!results && step.outputChanged) parts.push(step.outputs.length > 0 ? `output: ${step.outputs.map((o) => o.field).join(', ')}` : 'output changed')
  return parts.join(' · ') || 'changed'
}

/** The two runs as a diff wants them: the one that started first is A. */
export function olderFirst<T extends { runId: string; startedAt: number }>(x: T, y: T): [T, T] {
  return x.startedAt <= y.startedAt ? [x, y] : [y, x]
}
