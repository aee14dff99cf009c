//! Tolerant readers of a workflow definition as written. The server owns validation and an open
//! file may be invalid, so these check what they hand out rather than trusting the generated
//! `Workflow` type: a step is any object with a string `id` whose `inputs`, `tool` and `name`,
//! when present, have their declared types.

import type { JsonValue, Step, Workflow } from '../api/types'

/** A step as written in a file that may be invalid: only `id` is sure to be there. */
export type StepDraft = Partial<Step> & Pick<Step, 'id'>

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStepDraft(value: JsonValue): value is StepDraft {
  if (!isRecord(value) || typeof value.id !== 'string') return false
  const optional = (key: string, ok: (v: unknown) => boolean) => value[key] === undefined || ok(value[key])
  return optional('inputs', isRecord) && optional('tool', (v) => typeof v === 'string') && optional('name', (v) => typeof v === 'string')
}

export function stepsOf(definition: JsonValue | undefined): StepDraft[] {
  if (!isRecord(definition) || !Array.isArray(definition.steps)) return []
  return (definition.steps as JsonValue[]).filter(isStepDraft)
}

export function stepOf(definition: JsonValue | undefined, id: string): StepDraft | undefined {
  return stepsOf(definition).find((s) => s.id === id)
}

/** A top-level field (`defaults`, `output`, `inputs`, …) as written, if present. */
export function fieldOf(definition: JsonValue | undefined, key: keyof Workflow & string): JsonValue | undefined {
  return isRecord(definition) ? (definition[key] as JsonValue | undefined) : undefined
}
