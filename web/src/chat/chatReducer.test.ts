import { describe, expect, it } from 'vitest'
import type { ChatEvent, ChatSession, ChatToolCall, ChatTurn } from '../api/types'
import { chatReducer, emptyThread, fromRecord, inProgress, type ChatAction, type ChatThread } from './chatReducer'

const source = { index: 1, title: 'intro.md', text: 'vai composes RAG pipelines.', score: 0.91, collection: 'api_docs' }

function kept(overrides: Partial<ChatTurn> = {}): ChatTurn {
  return {
    id: 't1',
    question: 'what is vai?',
    answer: 'A tool [1].',
    status: 'done',
    mode: 'pipeline',
    sources: [source],
    toolCalls: [],
    provider: 'local',
    model: 'SmolLM2-135M-Instruct',
    usage: {},
    timings: { retrievalMs: 5, generationMs: 40, totalMs: 50 },
    startedAt: 1,
    ...overrides,
  }
}

const ev = (sessionId: string, event: ChatEvent): ChatAction => ({ type: 'event', sessionId, event })

function fold(actions: ChatAction[], from: ChatThread = emptyThread): ChatThread {
  return actions.reduce(chatReducer, from)
}

const started = (sessionId = 's1'): ChatAction =>
  ev(sessionId, { type: 'turn_started', sessionId, turnId: 't1', mode: 'pipeline', provider: 'local', model: 'SmolLM2-135M-Instruct' })

describe('chatReducer', () => {
  it('folds a streamed answer into the question asked, and takes the kept turn at the end', () => {
    const asked: ChatAction = { type: 'asked', key: 'a1', question: 'what is vai?', mode: 'pipeline' }
    let thread = fold([asked])
    expect(thread.turns[0]).toMatchObject({ phase: 'asking', question: 'what is vai?' })
    expect(inProgress(thread.turns[0])).toBe(true)

    thread = fold(
      [
        started(),
        ev('s1', { type: 'state', state: 'retrieving', label: 'Searching vai_demo.api_docs' }),
        ev('s1', { type: 'sources', sources: [source] }),
        ev('s1', { type: 'state', state: 'answering', label: 'Answering' }),
        ev('s1', { type: 'text', delta: 'A tool' }),
      ],
      thread,
    )
    expect(thread.sessionId).toBe('s1')
    expect(thread.turns[0]).toMatchObject({ phase: 'answering', turnId: 't1', answer: 'A tool', state: { state: 'answering' }, sources: [source] })

    thread = fold([ev('s1', { type: 'text', delta: ' [1].' }), ev('s1', { type: 'turn_finished', turn: kept() })], thread)
    expect(thread.turns).toHaveLength(1)
    expect(thread.turns[0]).toMatchObject({ phase: 'done', answer: 'A tool [1].', totalMs: 50, model: 'SmolLM2-135M-Instruct' })
    expect(thread.turns[0].state).toBeUndefined()
    // The element keeps its key through the turn.
    expect(thread.turns[0].key).toBe('t1')
    expect(inProgress(thread.turns[0])).toBe(false)
  })

  it('drops events of other sessions and of turns this page did not ask', () => {
    // Nothing asked: a stray turn does not start a session.
    expect(fold([started()])).toBe(emptyThread)
    const thread = fold([{ type: 'asked', key: 'a1', question: 'q', mode: 'pipeline' }, started('s1')])
    expect(chatReducer(thread, ev('s2', { type: 'text', delta: 'elsewhere' }))).toBe(thread)
    const done = chatReducer(thread, ev('s1', { type: 'turn_finished', turn: kept() }))
    // A late event after the turn ended changes nothing.
    expect(chatReducer(done, ev('s1', { type: 'text', delta: 'late' }))).toBe(done)
    // Nor does asking twice at once.
    const asking = chatReducer(done, { type: 'asked', key: 'a2', question: 'next', mode: 'pipeline' })
    expect(chatReducer(asking, { type: 'asked', key: 'a3', question: 'again', mode: 'pipeline' })).toBe(asking)
  })

  it('shows each tool call running, then with its result', () => {
    const call: ChatToolCall = {
      id: 'c1',
      name: 'vai_query',
      arguments: { query: 'auth' },
      label: 'Searching api_docs for "auth"',
      ok: true,
      summary: '5 results, top score 0.91',
      output: { resultCount: 5 },
      durationMs: 120,
    }
    let thread = fold([
      { type: 'asked', key: 'a1', question: 'q', mode: 'agent' },
      started(),
      ev('s1', { type: 'state', state: 'calling_tools', label: call.label }),
      ev('s1', { type: 'tool_call_started', id: 'c1', name: 'vai_query', arguments: { query: 'auth' }, label: call.label }),
    ])
    expect(thread.turns[0].toolCalls).toEqual([{ id: 'c1', name: 'vai_query', arguments: { query: 'auth' }, label: call.label }])
    thread = fold([ev('s1', { type: 'tool_call_finished', call }), ev('s1', { type: 'tool_call_finished', call: { ...call, id: 'c2', ok: false } })], thread)
    expect(thread.turns[0].toolCalls.map((c) => [c.id, c.call?.ok])).toEqual([
      ['c1', true],
      ['c2', false],
    ])
  })

  it('marks a refused question, but only the one waiting, in this session', () => {
    const asking = fold([{ type: 'asked', key: 'a1', question: 'q', mode: 'pipeline' }])
    const refused = chatReducer(asking, { type: 'refused', message: 'busy' })
    expect(refused.turns[0]).toMatchObject({ phase: 'refused', error: 'busy' })
    expect(chatReducer(emptyThread, { type: 'refused', message: 'busy' })).toBe(emptyThread)

    const inSession = { sessionId: 's1', turns: [fromRecord(kept())] }
    const again = chatReducer(inSession, { type: 'asked', key: 'a2', question: 'more', mode: 'pipeline' })
    expect(chatReducer(again, { type: 'refused', message: 'other', sessionId: 's2' })).toBe(again)
    expect(chatReducer(again, { type: 'refused', message: 'no chat session "s1"', sessionId: 's1' }).turns[1].phase).toBe('refused')
    // An answer already under way is not refused after the fact.
    const answering = chatReducer(again, ev('s1', { type: 'turn_started', sessionId: 's1', turnId: 't2', mode: 'pipeline', provider: 'p', model: 'm' }))
    expect(chatReducer(answering, { type: 'refused', message: 'late' })).toBe(answering)
  })

  it('ends the turn under way when the connection is lost', () => {
    const answering = fold([{ type: 'asked', key: 'a1', question: 'q', mode: 'pipeline' }, started(), ev('s1', { type: 'text', delta: 'half' })])
    const lost = chatReducer(answering, { type: 'interrupted', message: 'connection lost' })
    expect(lost.turns[0]).toMatchObject({ phase: 'failed', answer: 'half', error: 'connection lost' })
    expect(chatReducer(lost, { type: 'interrupted', message: 'again' })).toBe(lost)
  })

  it('shows a kept session as it was kept, failed and stopped turns included', () => {
    const session: ChatSession = {
      id: 's9',
      title: 'what is vai?',
      createdAt: 1,
      updatedAt: 2,
      turns: [
        kept(),
        kept({ id: 't2', status: 'failed', error: 'local: model crashed', answer: 'par', notice: 'fell back' }),
        kept({ id: 't3', status: 'cancelled' }),
      ],
    }
    const thread = chatReducer({ sessionId: 'old', turns: [] }, { type: 'loaded', session })
    expect(thread.sessionId).toBe('s9')
    expect(thread.turns.map((t) => t.phase)).toEqual(['done', 'failed', 'cancelled'])
    expect(thread.turns[1]).toMatchObject({ error: 'local: model crashed', notices: ['fell back'] })
    expect(chatReducer(thread, { type: 'cleared' })).toEqual({ turns: [] })
  })

  it('keeps how a kept answer was made, and the passages its sources quote', () => {
    const quoted = { ...source, passages: ['vai composes RAG pipelines.'] }
    const thread = fold([
      { type: 'asked', key: 'a1', question: 'what is vai?', mode: 'pipeline' },
      started(),
      ev('s1', { type: 'turn_finished', turn: kept({ method: 'extractive', sources: [quoted] }) }),
    ])
    expect(thread.turns[0]).toMatchObject({ method: 'extractive', sources: [quoted] })
    // Turns kept before the method was recorded have none.
    expect('method' in fromRecord(kept())).toBe(false)
  })
})
