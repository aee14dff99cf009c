//! The prose in an output: the answer-like strings (`text`, `answer`, `summary`, `report`, and any
//! string written as Markdown) that the inspector shows rendered, above the raw JSON, and the
//! list beside them that their `[n]` citations point into.
import type { AnswerMethod } from '../api/types'
import { looksLikeMarkdown } from '../markdown/markdown'
import { isRecord } from '../state/definition'

/** Fields read as prose whatever they hold, in the order they are shown. */
const PROSE_KEYS = ['answer', 'text', 'report', 'summary']
/** Lists a `[n]` may cite, the most specific first. */
const CITED_LISTS = ['citations', 'sources', 'results']
/** More prose fields than this in one output are left to the JSON view. */
const MOST = 4

/** What `[n]` cites: where it comes from and the passage quoted, as far as the entry says. */
export interface Citation {
  n: number
  source?: string
  passage?: string
}

export interface Prose {
  /** The field it is (empty for an output that is itself a string). */
  key: string
  text: string
  /** The entry `[n]` cites, when the output has a list to cite from and `n` is in it. */
  cited(n: number): Citation | undefined
}

const nothingCited = () => undefined

/** The prose fields of `value` (a step's or a run's output), in the order they are shown. */
export function proseOf(value: unknown): Prose[] {
  if (typeof value === 'string') return value.trim() ? [{ key: '', text: value, cited: nothingCited }] : []
  if (!isRecord(value)) return []
  const cited = citationsOf(value)
  const strings = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '')
  const named = PROSE_KEYS.flatMap((k) => strings.filter(([key]) => key === k))
  const marked = strings.filter(([key, text]) => !PROSE_KEYS.includes(key) && looksLikeMarkdown(text))
  return [...named, ...marked].slice(0, MOST).map(([key, text]) => ({ key, text, cited }))
}

/** How the output says its answer was made (a `generate` step's `method`), when it does. */
export function methodOf(value: unknown): AnswerMethod | undefined {
  const method = isRecord(value) ? value.method : undefined
  return method === 'generated' || method === 'extractive' || method === 'declined' ? method : undefined
}

/**
 * Citation `n` looked up in the output's `citations`, `sources` or `results`: by an entry's
 * `index` when the entries are numbered, else the n-th entry.
 */
function citationsOf(record: Record<string, unknown>): (n: number) => Citation | undefined {
  const key = CITED_LISTS.find((k) => Array.isArray(record[k]) && (record[k] as unknown[]).length > 0)
  if (!key) return nothingCited
  const list = record[key] as unknown[]
  const numbered = list.some((e) => isRecord(e) && typeof e.index === 'number')
  return (n) => {
    const entry = numbered ? list.find((e) => isRecord(e) && e.index === n) : list[n - 1]
    if (entry === undefined) return undefined
    if (!isRecord(entry)) return typeof entry === 'string' ? { n, passage: entry } : { n }
    const meta = isRecord(entry.metadata) ? entry.metadata : {}
    return { n, source: firstString(entry.source, entry.title, meta.source, meta.title), passage: firstString(entry.passage, entry.text, entry.content) }
  }
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === 'string' && v !== '')
}
