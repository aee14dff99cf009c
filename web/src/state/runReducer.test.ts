import { describe, expect, it } from 'vitest'
import type { JsonValue, RunEvent, RunSnapshot, ServerMessage } from '../api/types'
// A run the server recorded (server/http/tests/api.rs writes it): the snapshot a subscriber
// got first, the events after it, and the server's own fold of them all.
import recorded from './fixtures/run-fold.json'
import {
  appendStepText,
  beginRun,
  childKey,
  fromSnapshot,
  initialRunState,
  runReducer,
  STEP_TEXT_LIMIT,
  stepUsageOf,
  waitingFor,
  type RunView,
} from './runReducer'

const RUN = 'r1'

function snapshot(over: Partial<RunSnapshot> = {}): ServerMessage {
  return {
    type: 'snapshot',
    run: {
      runId: RUN,
      workflow: 'wf',
      status: 'running',
      seq: 0,
      startedAt: 1000,
      layers: [['a'], ['b', 'c']],
      steps: { a: { status: 'pending' }, b: { status: 'pending' }, c: { status: 'pending' } },
      ...over,
    },
  }
}

function ev(seq: number, event: RunEvent, extra: { output?: JsonValue; outputBytes?: number; runId?: string } = {}): ServerMessage {
  return { type: 'event', runId: extra.runId ?? RUN, seq, event, output: extra.output, outputBytes: extra.outputBytes }
}

function fold(state: RunView, ...messages: ServerMessage[]): RunView {
  return messages.reduce(runReducer, state)
}

const started = beginRun(RUN, 'builtin:wf')

describe('runReducer', () => {
  it('begins a run as running with no steps', () => {
    expect(started.runId).toBe(RUN)
    expect(started.workflowId).toBe('builtin:wf')
    expect(started.status).toBe('running')
    expect(started.seq).toBe(0)
    expect(started.steps).toEqual({})
  })

  it('remembers the run a single-step run replays from, through its snapshots', () => {
    const one = beginRun(RUN, 'builtin:wf', 'r0')
    expect(one.fromRun).toBe('r0')
    expect(fold(one, snapshot({ seq: 3 })).fromRun).toBe('r0')
    expect(fold(started, snapshot({ seq: 3 })).fromRun).toBeUndefined()
  })

  it('replaces state with a snapshot', () => {
    const s = fold(started, snapshot({ seq: 4, steps: { a: { status: 'completed', durationMs: 12 } } }))
    expect(s.seq).toBe(4)
    expect(s.steps).toEqual({ a: { status: 'completed', durationMs: 12 } })
    expect(s.layers).toEqual([['a'], ['b', 'c']])
    expect(s.startedAt).toBe(1000)
  })

  it('a later snapshot replaces step state wholesale', () => {
    const s = fold(
      started,
      snapshot({ seq: 2, steps: { a: { status: 'running' }, b: { status: 'pending' } } }),
      snapshot({ seq: 5, status: 'completed', steps: { a: { status: 'completed' } }, durationMs: 40 }),
    )
    expect(s.steps).toEqual({ a: { status: 'completed' } })
    expect(s.status).toBe('completed')
    expect(s.durationMs).toBe(40)
  })

  it('adopts a snapshot when no run is followed yet', () => {
    const s = runReducer(initialRunState, snapshot({ seq: 3 }))
    expect(s.runId).toBe(RUN)
    expect(s.seq).toBe(3)
  })

  it('ignores snapshots and events of another run', () => {
    const other = snapshot()
    if (other.type === 'snapshot') other.run.runId = 'r2'
    expect(runReducer(started, other)).toBe(started)
    const e = ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }, { runId: 'r2' })
    expect(runReducer(started, e)).toBe(started)
  })

  it('run_started marks every planned step pending', () => {
    const s = runReducer(started, ev(1, { type: 'run_started', workflow: 'wf', layers: [['a'], ['b']], totalSteps: 2 }))
    expect(s.steps).toEqual({ a: { status: 'pending' }, b: { status: 'pending' } })
    expect(s.layers).toEqual([['a'], ['b']])
    expect(s.status).toBe('running')
    expect(s.seq).toBe(1)
  })

  it('folds events in order: started → running → completed with duration and summary', () => {
    const s = fold(
      started,
      ev(1, { type: 'run_started', workflow: 'wf', layers: [['a']], totalSteps: 1 }),
      ev(2, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }),
    )
    expect(s.steps.a.status).toBe('running')
    const done = runReducer(
      s,
      ev(3, { type: 'step_completed', stepId: 'a', durationMs: 123, summary: '3 results', backend: 'local' }, { output: { n: 3 }, outputBytes: 7 }),
    )
    expect(done.steps.a).toMatchObject({ status: 'completed', durationMs: 123, summary: '3 results', backend: 'local', outputBytes: 7 })
    expect(done.stepOutputs.a).toEqual({ n: 3 })
    expect(done.seq).toBe(3)
  })

  it("keeps each step's usage and cost from its completion, and takes a snapshot's", () => {
    const usage = { llmInputTokens: 120, llmOutputTokens: 30, cost: { usd: 0, pricedAt: '2026-11-01' } }
    const s = runReducer(started, ev(1, { type: 'step_completed', stepId: 'a', durationMs: 5, summary: '', usage }))
    expect(stepUsageOf(s, 'a')).toEqual(usage)
    const b = runReducer(s, ev(2, { type: 'step_completed', stepId: 'b', durationMs: 5, summary: '' }))
    expect([stepUsageOf(b, 'a'), stepUsageOf(b, 'b')]).toEqual([usage, undefined])
    // A client that joins late gets each step's usage from the snapshot's step state.
    const joined = snapshot({ runId: 'other', seq: 3, steps: { a: { status: 'completed', usage } } })
    expect(joined.type === 'snapshot' && stepUsageOf(fromSnapshot(joined.run, initialRunState), 'a')).toEqual(usage)
  })

  it('keeps step outputs absent when only outputBytes is sent', () => {
    const s = runReducer(started, ev(1, { type: 'step_completed', stepId: 'a', durationMs: 1, summary: '' }, { outputBytes: 99999 }))
    expect(s.stepOutputs).toEqual({})
    expect(s.steps.a.outputBytes).toBe(99999)
  })

  it('ignores duplicate and old sequence numbers', () => {
    const s = fold(
      started,
      ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }),
      ev(2, { type: 'step_completed', stepId: 'a', durationMs: 5, summary: 'ok' }),
    )
    expect(runReducer(s, ev(2, { type: 'step_failed', stepId: 'a', error: 'x', durationMs: 1, continued: false }))).toBe(s)
    expect(runReducer(s, ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }))).toBe(s)
    expect(s.steps.a.status).toBe('completed')
  })

  it('ignores events already folded into a snapshot', () => {
    const s = fold(
      started,
      snapshot({ seq: 3, steps: { a: { status: 'completed', durationMs: 9 } } }),
      ev(3, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }),
    )
    expect(s.steps.a.status).toBe('completed')
    const next = runReducer(s, ev(4, { type: 'step_started', stepId: 'b', name: 'B', tool: 'merge' }))
    expect(next.steps.b.status).toBe('running')
    expect(next.seq).toBe(4)
  })

  it('keeps inline step outputs across a resubscribe snapshot of the same run', () => {
    const s = fold(
      started,
      ev(1, { type: 'step_completed', stepId: 'a', durationMs: 1, summary: '' }, { output: [1] }),
      snapshot({ seq: 1, steps: { a: { status: 'completed' } } }),
    )
    expect(s.stepOutputs.a).toEqual([1])
  })

  it('records a skipped step with its reason', () => {
    const s = runReducer(started, ev(1, { type: 'step_skipped', stepId: 'b', reason: 'conditional branch not taken' }))
    expect(s.steps.b).toEqual({ status: 'skipped', reason: 'conditional branch not taken' })
  })

  it('records a failed step with its error and duration', () => {
    const s = runReducer(started, ev(1, { type: 'step_failed', stepId: 'a', error: 'boom', durationMs: 8, continued: true }))
    expect(s.steps.a).toMatchObject({ status: 'failed', error: 'boom', durationMs: 8 })
  })

  it('records retries with the attempt number, then completion keeps the attempt', () => {
    const s = fold(
      started,
      ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }),
      ev(2, { type: 'step_retrying', stepId: 'a', attempt: 2, error: 'rate limited', delayMs: 500 }),
    )
    expect(s.steps.a).toMatchObject({ status: 'retrying', attempt: 2, error: 'rate limited' })
    const done = runReducer(s, ev(3, { type: 'step_completed', stepId: 'a', durationMs: 700, summary: 'ok' }))
    expect(done.steps.a).toMatchObject({ status: 'completed', attempt: 2 })
    expect(done.steps.a.error).toBeUndefined()
  })

  it('marks cancelled steps', () => {
    const s = fold(started, ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }), ev(2, { type: 'step_cancelled', stepId: 'a' }))
    expect(s.steps.a.status).toBe('cancelled')
  })

  it('run_finished sets the final status, duration, error, usage and output', () => {
    const s = runReducer(
      started,
      ev(1, { type: 'run_finished', status: 'failed', durationMs: 321, error: 'step a failed', usage: { requests: 2 } }, { output: { x: 1 } }),
    )
    expect(s).toMatchObject({ status: 'failed', durationMs: 321, error: 'step a failed', usage: { requests: 2 }, output: { x: 1 } })
  })

  it('run_finished completed and cancelled statuses', () => {
    expect(runReducer(started, ev(1, { type: 'run_finished', status: 'completed', durationMs: 1 })).status).toBe('completed')
    expect(runReducer(started, ev(1, { type: 'run_finished', status: 'cancelled', durationMs: 1 })).status).toBe('cancelled')
  })

  it('does not mutate the previous state', () => {
    const before = fold(started, ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'query' }))
    const copy = structuredClone(before)
    runReducer(before, ev(2, { type: 'step_completed', stepId: 'a', durationMs: 1, summary: 's' }, { output: 1 }))
    expect(before).toEqual(copy)
  })

  it('ignores hello, run_created and error messages', () => {
    expect(runReducer(started, { type: 'hello', runs: [] })).toBe(started)
    expect(runReducer(started, { type: 'error', code: 'BAD_MESSAGE', message: 'y' })).toBe(started)
    expect(runReducer(started, { type: 'run_created', run: { runId: 'r9', workflow: 'w', status: 'running', startedAt: 0 } })).toBe(started)
  })
})

describe('the text a running step writes', () => {
  const text = (seq: number, delta: string, stepId = 'a'): ServerMessage => ev(seq, { type: 'step_text', stepId, delta })
  const startedA = ev(1, { type: 'step_started', stepId: 'a', name: 'A', tool: 'generate' })

  it('step_text appends each delta to the step’s text, and the step is running', () => {
    const s = fold(started, snapshot(), startedA, text(2, 'To rotate '), text(3, 'a key, '), text(4, 'call **rotate**.'))
    expect(s.steps.a).toEqual({ status: 'running', text: 'To rotate a key, call **rotate**.' })
    expect(s.seq).toBe(4)
    // Seen already: not appended twice.
    expect(runReducer(s, text(4, 'call **rotate**.'))).toBe(s)
    // A step_text before its step_started (a snapshot in between) still starts the text.
    expect(fold(started, snapshot(), text(1, 'Hi', 'b')).steps.b).toEqual({ status: 'running', text: 'Hi' })
  })

  it('keeps at most 16 KB of it (UTF-8), cut on a character, as the server does', () => {
    const full = 'x'.repeat(STEP_TEXT_LIMIT - 1)
    const s = fold(started, snapshot(), startedA, text(2, full), text(3, 'éé'))
    // 'é' is two bytes: one byte of room is not enough for it, but is for the next delta's 'm'.
    expect(s.steps.a.text === full).toBe(true)
    const next = runReducer(s, text(4, 'more')).steps.a.text ?? ''
    expect([next.length, next.endsWith('xm')]).toEqual([STEP_TEXT_LIMIT, true])
    expect(appendStepText('x'.repeat(STEP_TEXT_LIMIT - 3), 'ab€')).toBe(`${'x'.repeat(STEP_TEXT_LIMIT - 3)}ab`)
    expect(appendStepText('x'.repeat(STEP_TEXT_LIMIT - 4), '😀!')).toBe(`${'x'.repeat(STEP_TEXT_LIMIT - 4)}😀`)
    expect(appendStepText('', 'short')).toBe('short')
  })

  it('clears the text when the step completes, fails, retries or is cancelled', () => {
    const writing = fold(started, snapshot(), startedA, text(2, 'partial answer'))
    const completed = runReducer(
      writing,
      ev(3, { type: 'step_completed', stepId: 'a', durationMs: 9, summary: 'answered' }, { output: { text: 'partial answer, whole' } }),
    )
    expect(completed.steps.a.text).toBeUndefined()
    expect(completed.stepOutputs.a).toEqual({ text: 'partial answer, whole' })
    const failed = runReducer(writing, ev(3, { type: 'step_failed', stepId: 'a', error: 'boom', durationMs: 9, continued: false }))
    expect(failed.steps.a.text).toBeUndefined()
    const retrying = runReducer(writing, ev(3, { type: 'step_retrying', stepId: 'a', attempt: 2, error: '503', delayMs: 10 }))
    expect(retrying.steps.a).toEqual({ status: 'retrying', attempt: 2, error: '503' })
    const cancelled = runReducer(writing, ev(3, { type: 'step_cancelled', stepId: 'a' }))
    expect(cancelled.steps.a).toEqual({ status: 'cancelled' })
  })

  it('takes a snapshot’s text as it is, and goes on from it', () => {
    const joined = fold(initialRunState, snapshot({ seq: 5, steps: { a: { status: 'running', text: 'So far' } } }))
    expect(joined.steps.a).toEqual({ status: 'running', text: 'So far' })
    expect(runReducer(joined, text(6, ', and more')).steps.a.text).toBe('So far, and more')
    // A later snapshot replaces it wholesale (the server cut it; the client does not recount).
    expect(runReducer(joined, snapshot({ seq: 7, steps: { a: { status: 'completed' } } })).steps.a.text).toBeUndefined()
  })
})

describe('the recorded run (shared with the server)', () => {
  it('folds to the snapshot the server folded', () => {
    const first = recorded.first as RunSnapshot
    const last = recorded.last as RunSnapshot
    const events = recorded.events as ServerMessage[]
    const mine = fold(beginRun(first.runId), { type: 'snapshot', run: first }, ...events)
    const { stepOutputs, ...folded } = mine
    const { stepOutputs: _none, ...theirs } = runReducer(initialRunState, { type: 'snapshot', run: last })
    expect(folded).toEqual(theirs)
    // Outputs came inline with the events; the snapshot does not carry them.
    expect(stepOutputs).toEqual({ a: { text: 'hi', delayMs: 150 }, last: { text: 'hi!' } })
  })

  it('knows where a step-through run waits, from its events or a snapshot', () => {
    const paused = fold(started, snapshot(), ev(1, { type: 'paused', stepId: 'a', name: 'A', tool: 'query', breakpoint: true }))
    expect(paused.paused).toMatchObject({ stepId: 'a', breakpoint: true })
    const resumed = fold(paused, ev(2, { type: 'resumed', stepId: 'a', action: 'next' }))
    expect(resumed.paused).toBeUndefined()
    const cancelled = fold(paused, ev(2, { type: 'step_cancelled', stepId: 'a' }))
    expect(cancelled.paused).toBeUndefined()
    expect(cancelled.steps.a.status).toBe('cancelled')
    const joined = fold(initialRunState, snapshot({ paused: { stepId: 'b', breakpoint: false, since: 5 } }))
    expect(joined.paused).toEqual({ stepId: 'b', breakpoint: false, since: 5 })
  })
})

describe('runs that wait, undo and run sub-workflows', () => {
  const expects = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] }
  const waiting: RunEvent = { type: 'waiting', stepId: 'b', message: 'Approve?', expects, deadlineMs: 99 }
  const child = (stepId: string, event: RunEvent, item?: number): RunEvent => ({ type: 'child', stepId, item, event })

  it('a yield step waits: the step shows it, the run records what it waits for, then stops as waiting', () => {
    const s = fold(started, snapshot(), ev(1, waiting), ev(2, { type: 'run_finished', status: 'waiting', durationMs: 30 }))
    expect(s.steps.b.status).toBe('waiting')
    expect(s.waiting).toEqual({ stepId: 'b', within: [], message: 'Approve?', expects, deadlineMs: 99 })
    expect(s.status).toBe('waiting')
  })

  it('the answered run goes on: the waiting step moving on ends the wait', () => {
    const stopped = fold(started, snapshot(), ev(1, waiting), ev(2, { type: 'run_finished', status: 'waiting', durationMs: 30 }))
    const replayed = runReducer(stopped, ev(3, { type: 'step_completed', stepId: 'a', durationMs: 0, summary: '', backend: 'replay' }))
    expect(replayed.waiting).toBeDefined()
    const answered = runReducer(replayed, ev(4, { type: 'step_completed', stepId: 'b', durationMs: 0, summary: 'approved' }))
    expect(answered.waiting).toBeUndefined()
    expect(answered.status).toBe('running')
    expect(answered.steps.b.status).toBe('completed')
    const done = runReducer(answered, ev(5, { type: 'run_finished', status: 'completed', durationMs: 40 }))
    expect(done.status).toBe('completed')
  })

  it('a step starting means a waiting run goes on, and a run that ends otherwise waits no more', () => {
    const stopped = fold(started, snapshot(), ev(1, waiting), ev(2, { type: 'run_finished', status: 'waiting', durationMs: 30 }))
    expect(runReducer(stopped, ev(3, { type: 'step_started', stepId: 'c', name: 'C', tool: 'echo' })).status).toBe('running')
    const failed = runReducer(stopped, ev(3, { type: 'run_finished', status: 'failed', durationMs: 31, error: 'refused' }))
    expect(failed.waiting).toBeUndefined()
  })

  it('a yield inside a sub-workflow sets the top-level workflow step waiting, and says within what', () => {
    const nested = child('sub', child('inner', { ...waiting, stepId: 'ask' }))
    const s = fold(started, snapshot(), ev(1, nested))
    expect(s.steps.sub.status).toBe('waiting')
    expect(s.waiting).toMatchObject({ stepId: 'ask', within: ['sub', 'inner'], message: 'Approve?' })
    expect(waitingFor(nested)?.[0]).toBe('sub')
    expect(waitingFor({ type: 'step_cancelled', stepId: 'a' })).toBeUndefined()
    // The child runs keep their own states, down to the yield step.
    expect(s.children.sub.steps.inner.status).toBe('waiting')
    expect(s.children.sub.children.inner.steps.ask.status).toBe('waiting')
  })

  it('keeps child step states by workflow step, and by item for a forEach', () => {
    const s = fold(
      started,
      snapshot(),
      ev(1, child('sub', { type: 'run_started', workflow: 'child', layers: [['x'], ['y']], totalSteps: 2 })),
      ev(2, child('sub', { type: 'step_started', stepId: 'x', name: 'X', tool: 'echo' })),
      ev(3, child('sub', { type: 'step_completed', stepId: 'x', durationMs: 4, summary: 'ok' })),
      ev(4, child('each', { type: 'step_failed', stepId: 'x', error: 'boom', durationMs: 1, continued: false }, 2)),
    )
    expect(s.children.sub.steps).toEqual({ x: expect.objectContaining({ status: 'completed', durationMs: 4 }), y: { status: 'pending' } })
    expect(s.children[childKey('each', 2)].steps.x).toMatchObject({ status: 'failed', error: 'boom' })
    expect(childKey('each', 2)).toBe('each[2]')
    // A child's events are not the parent's.
    expect(s.steps).toEqual({ a: { status: 'pending' }, b: { status: 'pending' }, c: { status: 'pending' } })
    expect(s.seq).toBe(4)
  })

  it('keeps child runs across a resubscribe snapshot of the same run, not of another', () => {
    const s = fold(started, snapshot(), ev(1, child('sub', { type: 'step_started', stepId: 'x', name: 'X', tool: 'echo' })))
    expect(fold(s, snapshot({ seq: 1 })).children.sub.steps.x.status).toBe('running')
    expect(runReducer(initialRunState, snapshot({ seq: 1 })).children).toEqual({})
  })

  it('records compensations on the steps they undo, and a failed one with its error', () => {
    const s = fold(
      started,
      snapshot({ steps: { a: { status: 'completed', durationMs: 3 }, b: { status: 'completed' } } }),
      ev(1, { type: 'compensating', stepId: 'a', tool: 'http' }),
      ev(2, { type: 'compensating', stepId: 'b', tool: 'http' }),
    )
    expect(s.steps.a).toEqual({ status: 'completed', durationMs: 3, compensation: 'compensating' })
    const done = fold(s, ev(3, { type: 'compensated', stepId: 'a', ok: true }), ev(4, { type: 'compensated', stepId: 'b', ok: false, error: '503' }))
    expect(done.steps.a).toEqual({ status: 'completed', durationMs: 3, compensation: 'compensated' })
    expect(done.steps.b).toEqual({ status: 'completed', compensation: 'compensation_failed', error: '503' })
    // A step the run does not know is not made up.
    expect(runReducer(started, ev(1, { type: 'compensating', stepId: 'zz', tool: 'http' })).steps).toEqual({})
  })

  it('knows what a waiting or interrupted run waits for from a snapshot', () => {
    const at = { stepId: 'ask', within: ['sub'], message: 'Approve?', expects }
    const s = runReducer(initialRunState, snapshot({ status: 'waiting', waiting: at, steps: { sub: { status: 'waiting' } } }))
    expect(s.waiting).toEqual(at)
    expect(s.status).toBe('waiting')
    expect(runReducer(initialRunState, snapshot({ status: 'interrupted' })).status).toBe('interrupted')
  })
})
