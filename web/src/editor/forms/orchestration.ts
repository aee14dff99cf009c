//! The builder's friendlier forms for the orchestration tools, as pure data: the workflows a
//! `workflow` step may call, a `yield` step's `expects` as rows of fields (and back), and a
//! step's `compensate`.
import type { Compensation, JsonValue, WorkflowSummary } from '../../api/types'
import { isObject } from './objects'

/** A workflow a `workflow` step can name: `value` is what its `workflow` input holds. */
export interface ChildWorkflow {
  value: string
  label: string
  /** The inputs it declares, in file order: the step's `inputs.inputs` fields. */
  inputs: readonly string[]
}

/** Where `.vai-workflow.json` files end; a child is named by its file's stem. */
const FILE_END = /\.vai-workflow\.json$|\.json$/

/**
 * The library's workflows a `workflow` step can call: built-ins by name, files beside this one by
 * stem (never examples, which are neither), without the workflow being edited (a cycle).
 */
export function childWorkflows(library: readonly WorkflowSummary[], currentId?: string): ChildWorkflow[] {
  const choices: ChildWorkflow[] = []
  for (const w of library) {
    if (w.id === currentId || (w.source !== 'builtin' && w.source !== 'file')) continue
    const name = w.id.slice(w.id.indexOf(':') + 1)
    const value = w.source === 'file' ? name.replace(FILE_END, '') : name
    choices.push({ value, label: w.name === value ? value : `${w.name} (${value})`, inputs: w.inputs })
  }
  return choices
}

export type FieldType = 'string' | 'number' | 'integer' | 'boolean'
export const FIELD_TYPES: readonly FieldType[] = ['string', 'number', 'integer', 'boolean']

/** One field of a `yield` step's answer, as the schema editor shows it. */
export interface ExpectsRow {
  name: string
  type: FieldType
  required: boolean
  /** The `enum`, comma-separated; empty for none. */
  choices: string
  /** The property's other keys (description, minimum, …), kept as they were. */
  extra: { [key: string]: JsonValue }
}

/** The rows of `expects` (a JSON Schema of an object), in its order. */
export function expectsRows(expects: JsonValue | undefined): ExpectsRow[] {
  if (!isObject(expects) || !isObject(expects.properties)) return []
  const required = Array.isArray(expects.required) ? expects.required : []
  return Object.entries(expects.properties).map(([name, prop]) => {
    const { type, enum: choices, ...extra } = isObject(prop) ? prop : {}
    return {
      name,
      type: FIELD_TYPES.find((t) => t === type) ?? 'string',
      required: required.includes(name),
      choices: Array.isArray(choices) ? choices.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join(', ') : '',
      extra,
    }
  })
}

function choiceOf(type: FieldType, text: string): JsonValue | undefined {
  if (type === 'string') return text
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined
  const n = Number(text)
  return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : undefined
}

/**
 * `expects` written from the rows: rows without a name are left out, choices that are not of
 * the row's type dropped; the schema's other keys are kept from `previous`.
 */
export function expectsOf(rows: readonly ExpectsRow[], previous?: JsonValue): { [key: string]: JsonValue } {
  const properties: { [key: string]: JsonValue } = {}
  const required: string[] = []
  for (const row of rows) {
    const name = row.name.trim()
    if (!name || Object.hasOwn(properties, name)) continue
    const choices = row.choices
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean)
      .flatMap((c): JsonValue[] => {
        const choice = choiceOf(row.type, c)
        return choice === undefined ? [] : [choice]
      })
    properties[name] = { ...row.extra, type: row.type, ...(choices.length > 0 ? { enum: choices } : {}) }
    if (row.required) required.push(name)
  }
  return { ...(isObject(previous) ? previous : {}), type: 'object', properties, required }
}

/** A step's `compensate` with `tool` set; no tool removes it. */
export function withCompensationTool(compensate: Compensation | undefined, tool: string): Compensation | undefined {
  if (!tool) return undefined
  return { ...compensate, tool, inputs: compensate?.inputs ?? {} }
}
