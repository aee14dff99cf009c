//! Turning the run form's field values into typed workflow inputs, and back.
import type { InputField, InputType, JsonValue } from '../api/types'

/** A form value: text for text/number/JSON fields, a flag for switches. */
export type FormValue = string | boolean
export type FormValues = Record<string, FormValue>

export type FieldKind = 'text' | 'number' | 'boolean' | 'json'

export function fieldKind(type: InputType): FieldKind {
  switch (type) {
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'array':
    case 'object':
      return 'json'
    case 'string':
      return 'text'
  }
}

/** The initial form value of a field: its default, or empty. */
export function initialValue(field: InputField): FormValue {
  const kind = fieldKind(field.type)
  const d = field.default
  if (kind === 'boolean') return d === true
  if (d === undefined || d === null) return ''
  if (kind === 'json') return JSON.stringify(d)
  return typeof d === 'string' ? d : JSON.stringify(d)
}

/** Initial values, overlaid with remembered ones for fields that still exist with a compatible kind. */
export function initialValues(fields: InputField[], remembered: FormValues = {}): FormValues {
  const values: FormValues = {}
  for (const field of fields) {
    const saved = remembered[field.name]
    const wantsFlag = fieldKind(field.type) === 'boolean'
    values[field.name] = saved !== undefined && (typeof saved === 'boolean') === wantsFlag ? saved : initialValue(field)
  }
  return values
}

/** The form values that give back `inputs` (a past run's, to run it again as it ran). */
export function formValuesOf(inputs: Record<string, JsonValue>): FormValues {
  const values: FormValues = {}
  for (const [name, value] of Object.entries(inputs)) {
    if (value === null) continue
    values[name] = typeof value === 'boolean' || typeof value === 'string' ? value : JSON.stringify(value)
  }
  return values
}

export interface Coerced {
  inputs: Record<string, JsonValue>
  /** Problems by field name; empty when the form can be submitted. */
  errors: Record<string, string>
}

/**
 * Typed inputs for `POST /api/runs`. An empty optional field is left out so the server applies
 * the workflow's default; an empty required one is an error.
 */
export function coerceInputs(fields: InputField[], values: FormValues): Coerced {
  const inputs: Record<string, JsonValue> = {}
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const kind = fieldKind(field.type)
    const value = values[field.name]
    if (kind === 'boolean') {
      inputs[field.name] = value === true
      continue
    }
    const text = typeof value === 'string' ? value : ''
    if (text.trim() === '') {
      if (field.required && field.default === undefined) errors[field.name] = 'Required'
      continue
    }
    if (kind === 'number') {
      const n = Number(text)
      if (!Number.isFinite(n)) errors[field.name] = 'Must be a number'
      else inputs[field.name] = n
      continue
    }
    if (kind === 'json') {
      try {
        const parsed = JSON.parse(text) as JsonValue
        const isArray = Array.isArray(parsed)
        if (field.type === 'array' && !isArray) errors[field.name] = 'Must be a JSON array'
        else if (field.type === 'object' && (isArray || typeof parsed !== 'object' || parsed === null)) errors[field.name] = 'Must be a JSON object'
        else inputs[field.name] = parsed
      } catch {
        errors[field.name] = 'Must be valid JSON'
      }
      continue
    }
    inputs[field.name] = text
  }
  return { inputs, errors }
}
