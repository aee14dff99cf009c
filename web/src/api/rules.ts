// generated — do not edit; VAI_UPDATE_GENERATED=1 cargo test -p vai-contract
// The file format's rules, as the engine applies them (server/workflow/src/rules.rs).

/** A number a step setting takes: its bounds (both included) and the engine's default when it is left out. */
export interface NumberRule {
  key: string
  integer: boolean
  minimum: number
  maximum: number
  default?: number
}

/** Step ids and input names: ASCII letters, digits and _, not starting with a digit. */
export const STEP_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Names a step id may not take: they are scope roots or literals. */
export const RESERVED_IDS: readonly string[] = ["inputs","defaults","item","index","true","false","null","undefined","output","input","step","steps","_loopIndex"]

/** The canvas node of the workflow's inputs (also its key in `ui.positions`). */
export const INPUTS_NODE = "__inputs"

/** The canvas node of the workflow's output (also its key in `ui.positions`). */
export const OUTPUT_NODE = "__output"

/** The id of the canvas edge that carries `field` of `target` from `source`. */
export function edgeId(source: string, target: string, field: string): string {
  return `${source}->${target}:${field}`
}

/** How many `forEach` iterations run at once. */
export const FOR_EACH_CONCURRENCY: NumberRule = {"key":"forEachConcurrency","integer":true,"minimum":1,"maximum":16,"default":4}

/** Time limit of one attempt, in milliseconds. */
export const TIMEOUT_MS: NumberRule = {"key":"timeoutMs","integer":true,"minimum":1,"maximum":3600000}

/** The keys of a step's `retry` object, in the order a form shows them. */
export const RETRY: readonly NumberRule[] = [{"key":"maxAttempts","integer":true,"minimum":1,"maximum":10,"default":3}, {"key":"initialDelayMs","integer":true,"minimum":0,"maximum":600000,"default":500}, {"key":"backoffRate","integer":false,"minimum":1,"maximum":10,"default":2}, {"key":"maxDelayMs","integer":true,"minimum":0,"maximum":3600000,"default":30000}]
