//! What an output holds that reads as an `agent`'s or a `router`'s (the inspector draws them:
//! AgentView, RouteView), read by shape as ProseView and ScoresView read theirs.
import type { ChatToolCall, JsonValue } from '../api/types'
import type { ToolCallView } from '../chat/chatReducer'
import { isRecord } from '../state/definition'

export interface AgentRun {
  /** The tool calls, as the Chat panel's timeline shows an agent turn's. */
  calls: ToolCallView[]
  iterations?: number
  notice?: string
}

/** An agent's output (`toolCalls` and `iterations`), else undefined. */
export function agentOf(value: unknown): AgentRun | undefined {
  if (!isRecord(value) || !Array.isArray(value.toolCalls) || typeof value.iterations !== 'number') return undefined
  const calls = value.toolCalls.filter(isRecord).map((call, i): ToolCallView => {
    const name = typeof call.name === 'string' ? call.name : 'tool'
    const args = (call.arguments ?? {}) as JsonValue
    const done: ChatToolCall = {
      id: String(i),
      name,
      arguments: args,
      label: name,
      ok: call.ok === true,
      summary: typeof call.summary === 'string' ? call.summary : '',
      durationMs: typeof call.durationMs === 'number' ? call.durationMs : 0,
    }
    return { id: done.id, name, label: name, arguments: args, call: done }
  })
  return { calls, iterations: value.iterations, ...(typeof value.notice === 'string' && value.notice ? { notice: value.notice } : {}) }
}

export type RouteMethod = 'llm' | 'similarity'

export interface RouteChoice {
  route: string
  reason?: string
  method: RouteMethod
  /** Similarity per route, best first (`method: "similarity"`). */
  scores: [string, number][]
  model?: string
}

/** A router's output (`route` and `method`), else undefined. */
export function routeOf(value: unknown): RouteChoice | undefined {
  if (!isRecord(value) || typeof value.route !== 'string' || (value.method !== 'llm' && value.method !== 'similarity')) return undefined
  const scores = isRecord(value.scores)
    ? Object.entries(value.scores)
        .filter((e): e is [string, number] => typeof e[1] === 'number')
        .sort((a, b) => b[1] - a[1])
    : []
  return {
    route: value.route,
    method: value.method,
    scores,
    ...(typeof value.reason === 'string' && value.reason ? { reason: value.reason } : {}),
    ...(typeof value.model === 'string' ? { model: value.model } : {}),
  }
}
