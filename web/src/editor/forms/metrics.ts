//! An `evaluator` step's `metrics` as the metrics editor shows them, as pure data: rows of name,
//! description and range (and back), and what is wrong with them — a name that is empty, has
//! quotes or is taken twice, a bound that is not a number, `min` above `max`. The bounds are
//! kept as the text typed, so `-` or `0.` can be typed on the way to a number.
import type { JsonValue } from '../../api/types'
import { isObject, uniqueName } from './objects'

/** The range the engine scores in when a metric leaves its bounds out. */
export const DEFAULT_RANGE = { min: 1, max: 5 } as const

export interface MetricRow {
  name: string
  description: string
  /** The bounds as typed; empty for the engine's default. */
  min: string
  max: string
  /** The metric's other keys, and its range's, kept as they were. */
  extra: { [key: string]: JsonValue }
  rangeExtra: { [key: string]: JsonValue }
}

function boundText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'number' ? String(value) : JSON.stringify(value)
}

/** The rows of a `metrics` value (an array of `{name, description, range: {min, max}}`). */
export function metricRows(value: JsonValue | undefined): MetricRow[] {
  if (!Array.isArray(value)) return []
  return value.map((metric) => {
    const { name, description, range, ...extra } = isObject(metric) ? metric : {}
    const { min, max, ...rangeExtra } = isObject(range) ? range : {}
    return {
      name: typeof name === 'string' ? name : '',
      description: typeof description === 'string' ? description : '',
      min: boundText(min),
      max: boundText(max),
      extra,
      rangeExtra,
    }
  })
}

/** A bound's text as a number; undefined when empty (the default applies) or not a number. */
export function boundOf(text: string): number | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  const n = Number(trimmed)
  return Number.isFinite(n) ? n : undefined
}

/**
 * The `metrics` value written from the rows. A bound that is not (yet) a number is left out, so
 * the file never holds half-typed text; the row keeps it and says what is wrong. An empty
 * description is left out too (it is optional).
 */
export function metricsOf(rows: readonly MetricRow[]): JsonValue[] {
  return rows.map((row) => {
    const min = boundOf(row.min)
    const max = boundOf(row.max)
    const range = { ...row.rangeExtra, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) }
    return {
      name: row.name,
      ...(row.description === '' ? {} : { description: row.description }),
      ...(Object.keys(range).length > 0 ? { range } : {}),
      ...row.extra,
    }
  })
}

/** A metric for the "Add metric" button: a free name and the default range written out. */
export function newMetric(rows: readonly MetricRow[]): MetricRow {
  const names = rows.map((r) => r.name)
  return {
    name: names.length === 0 ? 'quality' : uniqueName('metric', names),
    description: '',
    min: String(DEFAULT_RANGE.min),
    max: String(DEFAULT_RANGE.max),
    extra: {},
    rangeExtra: {},
  }
}

export interface MetricProblems {
  name?: string
  min?: string
  max?: string
}

/** The problems of each row, as the engine checks them (its messages, where it has one). */
export function metricProblems(rows: readonly MetricRow[]): MetricProblems[] {
  const count = new Map<string, number>()
  for (const row of rows) count.set(row.name.trim(), (count.get(row.name.trim()) ?? 0) + 1)
  return rows.map((row) => {
    const problems: MetricProblems = {}
    const name = row.name.trim()
    if (name === '') problems.name = 'A metric needs a name'
    // eslint-disable-next-line no-control-regex -- control characters are what the engine refuses
    else if (/["\\\u0000-\u001f]/.test(name)) problems.name = 'No quotes, backslashes or control characters'
    else if ((count.get(name) ?? 0) > 1) problems.name = `"${name}" is listed twice`
    const min = boundOf(row.min)
    const max = boundOf(row.max)
    if (row.min.trim() !== '' && min === undefined) problems.min = 'Must be a number'
    if (row.max.trim() !== '' && max === undefined) problems.max = 'Must be a number'
    const low = min ?? (row.min.trim() === '' ? DEFAULT_RANGE.min : undefined)
    const high = max ?? (row.max.trim() === '' ? DEFAULT_RANGE.max : undefined)
    if (low !== undefined && high !== undefined && low > high) problems.min = `min ${low} is more than max ${high}`
    return problems
  })
}

export function hasMetricProblems(problems: readonly MetricProblems[]): boolean {
  return problems.some((p) => Object.keys(p).length > 0)
}
