//! Read-only views into a workflow definition (parsed JSON of unknown shape). The server owns
//! validation; these helpers only pick out what the inspector shows, tolerating any shape.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export interface StepDefinition {
  id: string
  name?: string
  tool?: string
  inputs?: Record<string, Json>
  condition?: Json
  forEach?: Json
  dependsOn?: Json
  continueOnError?: Json
  [key: string]: Json | undefined
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function stepsOf(definition: unknown): StepDefinition[] {
  if (!isRecord(definition) || !Array.isArray(definition.steps)) return []
  return definition.steps.filter((s): s is StepDefinition => isRecord(s) && typeof s.id === 'string')
}

export function stepOf(definition: unknown, id: string): StepDefinition | undefined {
  return stepsOf(definition).find((s) => s.id === id)
}

/** A top-level field (`defaults`, `output`, `inputs`, …) if present. */
export function fieldOf(definition: unknown, key: string): Json | undefined {
  return isRecord(definition) ? (definition[key] as Json | undefined) : undefined
}
