//! The answer form of a waiting run, as pure data: the fields a `yield` step's `expects` (a JSON
//! Schema of an object) declares, and the check of an answer against them. The check mirrors the
//! server's (server/workflow/src/expects.rs), so most mistakes are shown before anything is sent;
//! the server's own per-field errors still have the last word.
import type { FieldError, JsonValue } from '../api/types'
import type { FormValue, FormValues } from '../runbar/coerce'
import { isRecord } from '../state/definition'

export type AnswerKind = 'string' | 'number' | 'integer' | 'boolean'

/** One field of the answer. */
export interface AnswerField {
  name: string
  kind: AnswerKind
  required: boolean
  description?: string
  /** `enum`: the answer is one of these. */
  choices?: JsonValue[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  /** The schema's `default`, when it is of the field's kind. */
  default?: JsonValue
}

const KINDS: readonly string[] = ['string', 'number', 'integer', 'boolean'] satisfies AnswerKind[]

const numberOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/**
 * The fields of `expects`, in the schema's order. Tolerant: the server checked the schema when
 * the workflow was loaded; what is not understood here becomes a text field.
 */
export function answerFields(expects: JsonValue | undefined): AnswerField[] {
  if (!isRecord(expects) || !isRecord(expects.properties)) return []
  const required = Array.isArray(expects.required) ? expects.required.filter((r) => typeof r === 'string') : []
  return Object.entries(expects.properties).map(([name, raw]) => {
    const prop = isRecord(raw) ? raw : {}
    const choices = Array.isArray(prop.enum) && prop.enum.length > 0 ? (prop.enum as JsonValue[]) : undefined
    const kind = typeof prop.type === 'string' && KINDS.includes(prop.type) ? (prop.type as AnswerKind) : 'string'
    const field: AnswerField = {
      name,
      kind,
      required: required.includes(name),
      description: typeof prop.description === 'string' ? prop.description : undefined,
      choices,
      minimum: numberOf(prop.minimum),
      maximum: numberOf(prop.maximum),
      minLength: numberOf(prop.minLength),
      maxLength: numberOf(prop.maxLength),
    }
    const fallback = prop.default as JsonValue | undefined
    if (fallback !== undefined && fallback !== null && admits(field, fallback)) field.default = fallback
    return field
  })
}

function admits(field: AnswerField, value: JsonValue): boolean {
  switch (field.kind) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number'
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
  }
}

/** How a choice reads in the select: a string as itself, anything else as JSON. */
export function choiceLabel(choice: JsonValue): string {
  return typeof choice === 'string' ? choice : JSON.stringify(choice)
}

/** The form's value of a choice: its JSON, so `1` and `"1"` stay apart. */
export function choiceValue(choice: JsonValue): string {
  return JSON.stringify(choice)
}

/** The form's first values: each field's default, else empty (a switch off). */
export function initialAnswer(fields: AnswerField[]): FormValues {
  const values: FormValues = {}
  for (const field of fields) {
    const d = field.default
    if (field.kind === 'boolean' && !field.choices) values[field.name] = d === true
    else if (d === undefined) values[field.name] = ''
    else if (field.choices) values[field.name] = choiceValue(d)
    else values[field.name] = typeof d === 'string' ? d : String(d)
  }
  return values
}

/** The value the form holds for `field`, as the answer sends it; `undefined` when left empty. */
function valueOf(field: AnswerField, value: FormValue | undefined): JsonValue | undefined {
  if (typeof value === 'boolean') return value
  const text = value ?? ''
  if (field.choices) return text === '' ? undefined : (JSON.parse(text) as JsonValue)
  if (field.kind === 'string') return text === '' ? undefined : text
  if (text.trim() === '') return undefined
  const n = Number(text.trim())
  return Number.isFinite(n) ? n : text
}

/** What is wrong with one present value, in the server's words; `undefined` when it is fine. */
function problem(field: AnswerField, value: JsonValue): string | undefined {
  if (!admits(field, value)) return field.kind === 'integer' ? 'must be an integer' : `must be a ${field.kind}`
  if (field.choices && !field.choices.some((c) => JSON.stringify(c) === JSON.stringify(value))) {
    return `must be one of ${field.choices.map((c) => JSON.stringify(c)).join(', ')}`
  }
  if (typeof value === 'number') {
    if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`
    if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`
  }
  if (typeof value === 'string') {
    // Characters, not UTF-16 units, as the server counts them.
    const length = [...value].length
    if (field.minLength !== undefined && length < field.minLength) return `must be at least ${field.minLength} characters long`
    if (field.maxLength !== undefined && length > field.maxLength) return `must be at most ${field.maxLength} characters long`
  }
  return undefined
}

export interface Answer {
  /** The body's `input`: the fields filled in, typed. */
  input: Record<string, JsonValue>
  /** Problems by field name; empty when the answer can be sent. */
  errors: Record<string, string>
}

/** The answer the form's values make, and every problem with it, by field. */
export function toAnswer(fields: AnswerField[], values: FormValues): Answer {
  const input: Record<string, JsonValue> = {}
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = valueOf(field, values[field.name])
    if (value === undefined) {
      if (field.required) errors[field.name] = 'is required'
      continue
    }
    const wrong = problem(field, value)
    if (wrong) errors[field.name] = wrong
    else input[field.name] = value
  }
  return { input, errors }
}

/**
 * The server's `INVALID_ANSWER` fields by name, for the form to show under each; what names no
 * field of the form (the answer as a whole, or a field the form lacks) goes to `rest`.
 */
export function serverErrors(fields: AnswerField[], errors: FieldError[]): { byField: Record<string, string>; rest: string[] } {
  const names = new Set(fields.map((f) => f.name))
  const byField: Record<string, string> = {}
  const rest: string[] = []
  for (const { field, message } of errors) {
    if (names.has(field)) byField[field] ??= message
    else rest.push(field ? `${field} ${message}` : message)
  }
  return { byField, rest }
}

/** A field's problem as shown under it: "is required" reads "Is required". */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1)
}
