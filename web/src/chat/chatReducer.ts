//! The Chat panel's conversation as a pure fold: a question asked, the turn's events as the socket
//! delivers them, a refusal, a lost connection, a session read from the history. Events of another
//! session (or of no turn this page asked) are dropped, so nothing lands in the wrong conversation;
//! `turn_finished` carries the turn as the server kept it and replaces what the events built.
import type { AnswerMethod, ChatEvent, ChatMode, ChatSession, ChatSource, ChatToolCall, ChatTurn, JsonValue, TurnState, TurnStatus, Usage } from '../api/types'

/** A tool call of an agent turn: running until `call` (its result) arrives. */
export interface ToolCallView {
  id: string
  name: string
  label: string
  arguments: JsonValue
  call?: ChatToolCall
}

/**
 * Where a turn is: `asking` until the server starts it, `answering` while it runs, then how it
 * ended; `refused` when the server would not take the question (nothing was kept).
 */
export type TurnPhase = 'asking' | 'answering' | TurnStatus | 'refused'

export interface TurnView {
  /** React key: the turn id once the server named it, a local one before. */
  key: string
  turnId?: string
  question: string
  answer: string
  phase: TurnPhase
  /** What the assistant is doing now (while it answers). */
  state?: { state: TurnState; label: string }
  notices: string[]
  sources: ChatSource[]
  /** How the answer was made, once the turn is kept (absent in turns kept before it was). */
  method?: AnswerMethod
  toolCalls: ToolCallView[]
  error?: string
  mode?: ChatMode
  provider?: string
  model?: string
  totalMs?: number
  /** What the turn's model calls used and cost, once it is kept. */
  usage?: Usage
}

export interface ChatThread {
  /** The session the turns belong to; absent until the first question starts one. */
  sessionId?: string
  turns: TurnView[]
}

export type ChatAction =
  | { type: 'asked'; key: string; question: string; mode: ChatMode }
  | { type: 'event'; sessionId: string; event: ChatEvent }
  | { type: 'refused'; message: string; sessionId?: string }
  | { type: 'interrupted'; message: string }
  | { type: 'loaded'; session: ChatSession }
  | { type: 'cleared' }

export const emptyThread: ChatThread = { turns: [] }

/** Whether the turn is still waiting for (or receiving) its answer. */
export function inProgress(turn: TurnView | undefined): boolean {
  return turn?.phase === 'asking' || turn?.phase === 'answering'
}

/** A kept turn as the panel shows it. */
export function fromRecord(turn: ChatTurn): TurnView {
  return {
    key: turn.id,
    turnId: turn.id,
    question: turn.question,
    answer: turn.answer,
    phase: turn.status,
    notices: turn.notice ? [turn.notice] : [],
    sources: turn.sources,
    ...(turn.method ? { method: turn.method } : {}),
    toolCalls: turn.toolCalls.map((call) => ({ id: call.id, name: call.name, label: call.label, arguments: call.arguments, call })),
    error: turn.error,
    mode: turn.mode,
    provider: turn.provider,
    model: turn.model,
    totalMs: turn.timings.totalMs,
    usage: turn.usage,
  }
}

/** The thread with its last turn replaced by `update(last)` when that turn is in progress. */
function withActive(thread: ChatThread, update: (turn: TurnView) => TurnView): ChatThread {
  const last = thread.turns[thread.turns.length - 1]
  if (!inProgress(last)) return thread
  return { ...thread, turns: [...thread.turns.slice(0, -1), update(last)] }
}

function foldEvent(turn: TurnView, event: ChatEvent): TurnView {
  switch (event.type) {
    case 'turn_started':
      return { ...turn, key: event.turnId, turnId: event.turnId, phase: 'answering', mode: event.mode, provider: event.provider, model: event.model }
    case 'state':
      return { ...turn, state: { state: event.state, label: event.label } }
    case 'notice':
      return { ...turn, notices: [...turn.notices, event.message] }
    case 'sources':
      return { ...turn, sources: event.sources }
    case 'tool_call_started':
      if (turn.toolCalls.some((c) => c.id === event.id)) return turn
      return { ...turn, toolCalls: [...turn.toolCalls, { id: event.id, name: event.name, label: event.label, arguments: event.arguments }] }
    case 'tool_call_finished': {
      const { call } = event
      const known = turn.toolCalls.some((c) => c.id === call.id)
      const view = { id: call.id, name: call.name, label: call.label, arguments: call.arguments, call }
      return { ...turn, toolCalls: known ? turn.toolCalls.map((c) => (c.id === call.id ? view : c)) : [...turn.toolCalls, view] }
    }
    case 'text':
      return { ...turn, answer: turn.answer + event.delta }
    case 'turn_finished':
      // The kept turn is the truth; the local key stays so React keeps the element.
      return { ...fromRecord(event.turn), key: turn.key }
  }
}

export function chatReducer(thread: ChatThread, action: ChatAction): ChatThread {
  switch (action.type) {
    case 'asked':
      if (inProgress(thread.turns[thread.turns.length - 1])) return thread
      return {
        ...thread,
        turns: [
          ...thread.turns,
          { key: action.key, question: action.question, answer: '', phase: 'asking', notices: [], sources: [], toolCalls: [], mode: action.mode },
        ],
      }
    case 'event': {
      const { sessionId, event } = action
      if (thread.sessionId === undefined) {
        // A new session is named by its first turn's first event, for the question asked here.
        const last = thread.turns[thread.turns.length - 1]
        if (event.type !== 'turn_started' || last?.phase !== 'asking') return thread
        return withActive({ ...thread, sessionId }, (turn) => foldEvent(turn, event))
      }
      if (sessionId !== thread.sessionId) return thread
      return withActive(thread, (turn) => foldEvent(turn, event))
    }
    case 'refused': {
      if (action.sessionId !== undefined && thread.sessionId !== undefined && action.sessionId !== thread.sessionId) return thread
      const last = thread.turns[thread.turns.length - 1]
      if (last?.phase !== 'asking') return thread
      return withActive(thread, (turn) => ({ ...turn, phase: 'refused', error: action.message }))
    }
    case 'interrupted':
      return withActive(thread, (turn) => ({ ...turn, phase: turn.phase === 'asking' ? 'refused' : 'failed', state: undefined, error: action.message }))
    case 'loaded':
      return { sessionId: action.session.id, turns: action.session.turns.map(fromRecord) }
    case 'cleared':
      return emptyThread
  }
}
