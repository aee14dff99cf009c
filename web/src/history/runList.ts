//! How the Runs panel reads a past run: its status in words and colour, when it ran (relative,
//! with the date as the tooltip), and the text filter over what a row shows.
import type { HistoryEntry } from '../api/types'

/** Every status `GET /api/history` gives a run, in words. */
export const HISTORY_STATUS_LABEL: Record<string, string> = {
  running: 'Running',
  waiting: 'Waiting',
  interrupted: 'Interrupted',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  unreadable: 'Unreadable',
}

const STATUS_COLOR: Record<string, 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  running: 'info',
  waiting: 'warning',
  interrupted: 'warning',
  completed: 'success',
  failed: 'error',
  cancelled: 'warning',
}

/** The status filter's choices: every status but `unreadable` (such runs show under All). */
export const STATUS_FILTERS = ['completed', 'failed', 'cancelled', 'waiting', 'interrupted', 'running'] as const

export function statusLabel(status: string): string {
  return HISTORY_STATUS_LABEL[status] ?? status
}

/** The MUI colour of a status chip. */
export function statusColor(status: string): 'success' | 'error' | 'warning' | 'info' | 'default' {
  return STATUS_COLOR[status] ?? 'default'
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** `just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 days ago`, then the date. */
export function relativeTime(at: number, now = Date.now()): string {
  const ago = now - at
  if (ago < MINUTE) return 'just now'
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`
  if (ago < 2 * DAY) return 'yesterday'
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} days ago`
  return new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' })
}

/** The moment itself, for a tooltip: `Nov 28, 2026, 11:42:05`. */
export function absoluteTime(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
}

/** A run id shortened for a sentence (ids are `r` + time + random bits, all of it needed only to look one up). */
export function shortRunId(runId: string): string {
  return runId.length > 12 ? `${runId.slice(0, 4)}…${runId.slice(-6)}` : runId
}

/**
 * The runs whose row mentions every word of `query` (case-insensitive): the inputs, the
 * status, the id, the workflow's name, the step a restart began at and the error.
 */
export function filterRuns(runs: HistoryEntry[], query: string): HistoryEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return runs
  return runs.filter((r) => {
    const text = [r.inputs, statusLabel(r.status), r.runId, r.workflow, r.from ? `restarted ${r.from.step} ${r.from.runId}` : '', r.error ?? '']
      .join(' ')
      .toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
