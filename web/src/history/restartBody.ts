//! What a restart sends: the step to start from, the definition when it is not the one the run
//! ran (edited since, in the editor or as the file is now), and the run form's inputs that differ
//! from the ones it ran with (the server keeps the rest).
import type { JsonValue, RestartRun } from '../api/types'

/** The same JSON, whatever the order of object keys. */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return canonical(a) === canonical(b)
}

function canonical(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

export interface RestartFrom {
  from: string
  /** The definition now (the editor's while editing). */
  definition?: JsonValue
  /** The one the run ran, when known: an unchanged definition is not sent. */
  ran?: JsonValue
  /** The run form's inputs. */
  inputs: Record<string, JsonValue>
  /** The ones the run ran with, when known: only inputs that differ are sent. */
  ranWith?: Record<string, JsonValue>
}

export function restartBody({ from, definition, ran, inputs, ranWith }: RestartFrom): RestartRun {
  const body: RestartRun = { from }
  if (definition !== undefined && (ran === undefined || !sameJson(definition, ran))) body.definition = definition
  const changed = Object.entries(inputs).filter(([k, v]) => ranWith === undefined || !sameJson(v, ranWith[k]))
  if (changed.length > 0) body.inputs = Object.fromEntries(changed)
  return body
}
