//! The fields of a step the form shows: the tool's inputs and the step-level settings, with the
//! engine's defaults and bounds (server/workflow/src/model.rs and compile/structure.rs; draft
//! validation has the last word).
import type { JsonValue, Step, ToolView } from '../../api/types'
import { isObject } from './objects'
export interface NumberSetting {
  key: string
  label: string
  integer: boolean
  minimum: number
  maximum: number
  default?: number
  description: string
}

export const FOR_EACH_CONCURRENCY: NumberSetting = {
  key: 'forEachConcurrency',
  label: 'Concurrency',
  integer: true,
  minimum: 1,
  maximum: 16,
  default: 4,
  description: 'How many forEach elements run at once',
}

export const TIMEOUT_MS: NumberSetting = {
  key: 'timeoutMs',
  label: 'Timeout (ms)',
  integer: true,
  minimum: 1,
  maximum: 3_600_000,
  description: 'Time limit of one attempt',
}

export const RETRY_SETTINGS: readonly NumberSetting[] = [
  { key: 'maxAttempts', label: 'Max attempts', integer: true, minimum: 1, maximum: 10, default: 3, description: 'Attempts in all, the first included' },
  {
    key: 'initialDelayMs',
    label: 'Initial delay (ms)',
    integer: true,
    minimum: 0,
    maximum: 600_000,
    default: 500,
    description: 'Delay before the second attempt',
  },
  {
    key: 'backoffRate',
    label: 'Backoff rate',
    integer: false,
    minimum: 1,
    maximum: 10,
    default: 2,
    description: 'Factor applied to the delay after each attempt',
  },
  { key: 'maxDelayMs', label: 'Max delay (ms)', integer: true, minimum: 0, maximum: 3_600_000, default: 30_000, description: 'Upper bound of one delay' },
]

/** Step ids and input names: letters, digits and _, not starting with a digit. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

export function identifierError(text: string, what: string): string | undefined {
  if (text === '') return `A ${what} cannot be empty`
  if (!IDENTIFIER.test(text)) return `A ${what} uses letters, digits and _, and does not start with a digit`
  return undefined
}

/** The tool's input keys, declared ones first (schema order), then keys the tool does not declare. */
export function inputKeys(step: Pick<Step, 'inputs'>, tool?: ToolView): string[] {
  const declared = Object.keys(tool?.inputSchema.properties ?? {})
  return [...declared, ...Object.keys(step.inputs ?? {}).filter((k) => !declared.includes(k))]
}

/** Why edited JSON cannot replace the step, or undefined when it can. */
export function stepJsonError(value: JsonValue, id: string): string | undefined {
  if (!isObject(value)) return 'A step is a JSON object'
  if (value.id !== id) return 'Rename the step with the Id field, so references to it follow'
  if (typeof value.tool !== 'string' || value.tool === '') return 'A step needs "tool", the name of a tool'
  if (value.inputs !== undefined && !isObject(value.inputs)) return '"inputs" must be an object'
  return undefined
}

/** Every field the step form shows (diagnostics on other fields are listed at the top). */
export function stepFields(step: Step, tool?: ToolView): string[] {
  const settings = [
    'id',
    'name',
    'description',
    'tool',
    'inputs',
    'condition',
    'forEach',
    'forEachConcurrency',
    'continueOnError',
    'dependsOn',
    'timeoutMs',
    'retry',
  ]
  return [...settings, ...RETRY_SETTINGS.map((s) => `retry.${s.key}`), ...inputKeys(step, tool).map((k) => `inputs.${k}`)]
}
