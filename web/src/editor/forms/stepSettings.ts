//! The fields of a step the form shows: the tool's inputs and the step-level settings, with the
//! engine's defaults and bounds (api/rules.ts, generated from the engine's rules).
import type { JsonValue, Step, ToolView } from '../../api/types'
import { FOR_EACH_CONCURRENCY as CONCURRENCY_RULE, RETRY, STEP_ID_PATTERN, TIMEOUT_MS as TIMEOUT_RULE, type NumberRule } from '../../api/rules'
import { isObject } from './objects'

/** A step setting as the form shows it: the engine's rule, with a label and a description. */
export interface NumberSetting extends NumberRule {
  label: string
  description: string
}

export const FOR_EACH_CONCURRENCY: NumberSetting = {
  ...CONCURRENCY_RULE,
  label: 'Concurrency',
  description: 'How many forEach elements run at once',
}

export const TIMEOUT_MS: NumberSetting = { ...TIMEOUT_RULE, label: 'Timeout (ms)', description: 'Time limit of one attempt' }

const RETRY_WORDS: Record<string, Pick<NumberSetting, 'label' | 'description'>> = {
  maxAttempts: { label: 'Max attempts', description: 'Attempts in all, the first included' },
  initialDelayMs: { label: 'Initial delay (ms)', description: 'Delay before the second attempt' },
  backoffRate: { label: 'Backoff rate', description: 'Factor applied to the delay after each attempt' },
  maxDelayMs: { label: 'Max delay (ms)', description: 'Upper bound of one delay' },
}

export const RETRY_SETTINGS: readonly NumberSetting[] = RETRY.map((rule) => ({
  ...rule,
  ...(RETRY_WORDS[rule.key] ?? { label: rule.key, description: '' }),
}))

/** Step ids and input names: letters, digits and _, not starting with a digit. */
export const IDENTIFIER = STEP_ID_PATTERN

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
    'compensate.tool',
    'compensate.inputs',
  ]
  return [...settings, ...RETRY_SETTINGS.map((s) => `retry.${s.key}`), ...inputKeys(step, tool).map((k) => `inputs.${k}`)]
}
