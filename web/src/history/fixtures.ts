//! A run history as the server gives it, for the tests: two runs of the fake server's "Two
//! Steps" workflow (test/fakeServer.ts) with different `limit`s, a third restarted from the
//! first, and their diff. `historyRoutes` answers the history routes with them.
import type { HistoryEntry, HistoryRecord, RunDiff, RunSnapshot } from '../api/types'
import { definition, type Respond } from '../test/fakeServer'

export const WORKFLOW_ID = 'builtin:two-steps'
export const T0 = Date.UTC(2026, 10, 28, 11, 0, 0)

export function entry(over: Partial<HistoryEntry> & { runId: string }): HistoryEntry {
  return { workflow: 'Two Steps', workflowId: WORKFLOW_ID, status: 'completed', startedAt: T0, durationMs: 1200, inputs: 'query=auth, limit=3', ...over }
}

export const first = entry({ runId: 'r-first', startedAt: T0, inputs: 'query=auth, limit=3', usage: { cost: { usd: 0.0012, pricedAt: '2026-11-01' } } })
export const second = entry({ runId: 'r-second', startedAt: T0 + 60_000, durationMs: 1500, inputs: 'query=auth, limit=6' })
export const restartedRun = entry({ runId: 'r-third', startedAt: T0 + 120_000, from: { runId: 'r-first', step: 'merge' } })

/** Newest first, as `GET /api/history` lists them. */
export const listed = [restartedRun, second, first]

export function record(run: HistoryEntry, over: Partial<HistoryRecord> = {}): HistoryRecord {
  const limit = run.inputs.endsWith('6') ? 6 : 3
  return { run, definition, inputs: { query: 'auth', limit }, changedSince: [], ...over }
}

export function snapshot(run: HistoryEntry): RunSnapshot {
  return {
    runId: run.runId,
    workflow: run.workflow,
    workflowId: run.workflowId,
    status: 'completed',
    seq: 0,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    layers: [],
    steps: {
      search: { status: 'completed', durationMs: 800, summary: '3 results', backend: 'local' },
      merge: { status: 'completed', durationMs: 4, summary: '3 results' },
    },
  }
}

export const diff: RunDiff = {
  workflow: 'Two Steps',
  a: { runId: 'r-first', status: 'completed', startedAt: T0, durationMs: 1200, costUsd: 0.0012 },
  b: { runId: 'r-second', status: 'completed', startedAt: T0 + 60_000, durationMs: 1500, costUsd: 0.0015 },
  workflowChanges: [],
  inputs: [{ field: 'limit', a: 3, b: 6 }],
  steps: [
    {
      id: 'search',
      name: 'Search it',
      tool: 'search',
      change: 'changed',
      statusA: 'completed',
      statusB: 'completed',
      inputs: [{ field: 'limit', a: 3, b: 6 }],
      outputChanged: true,
      results: {
        field: 'results',
        entered: [{ key: 'd7', label: 'architecture/queues.md', rankB: 2, scoreB: 0.71 }],
        left: [],
        moved: [{ key: 'd2', label: 'api_docs/keys.md', rankA: 2, rankB: 3, scoreA: 0.8, scoreB: 0.8 }],
        unchanged: 1,
      },
      outputs: [{ field: 'resultCount', a: 3, b: 6 }],
      durationA: 800,
      durationB: 950,
    },
    { id: 'merge', name: 'Merge it', tool: 'merge', change: 'same', statusA: 'completed', statusB: 'completed', inputs: [], outputChanged: false, outputs: [] },
  ],
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

/** Answers the history routes (and a past run's snapshot) from the runs above; `records` overrides. */
export function historyRoutes(records: Record<string, HistoryRecord> = {}): Respond {
  const runs = Object.fromEntries([...listed, ...Object.values(records).map((r) => r.run)].map((r) => [r.runId, r]))
  return ({ method, path }) => {
    const url = new URL(path, 'http://vai.test')
    if (url.pathname === '/api/history') {
      const status = url.searchParams.get('status')
      return json({ runs: listed.filter((r) => !status || r.status === status) })
    }
    if (url.pathname === '/api/history/diff') return json(diff)
    const restart = url.pathname.match(/^\/api\/history\/([^/]+)\/restart$/)
    if (restart && method === 'POST') return json({ runId: 'r-new' }, 201)
    const one = url.pathname.match(/^\/api\/history\/([^/]+)$/)
    if (one) {
      const run = runs[one[1]]
      return records[one[1]] ? json(records[one[1]]) : run ? json(record(run)) : json({ error: { code: 'NOT_FOUND', message: 'no run' } }, 404)
    }
    const snap = url.pathname.match(/^\/api\/runs\/(r-[a-z]+)$/)
    if (snap && runs[snap[1]]) return json(snapshot(runs[snap[1]]))
    const step = url.pathname.match(/^\/api\/runs\/(r-[a-z]+)\/steps\/([^/]+)\/output$/)
    if (step && runs[step[1]])
      return json({
        stepId: step[2],
        status: 'completed',
        durationMs: 800,
        inputs: { query: 'auth', limit: 3 },
        output: { results: [{ text: 'recorded hit' }], resultCount: 1 },
      })
    return undefined
  }
}
