//! Which widget edits a value, read from the tool's declared `PropertySchema` (and the value's
//! own JSON type when the schema allows several).
import type { JsonType, JsonValue, PropertySchema } from '../../api/types'

export type Widget =
  | 'text'
  | 'multiline'
  | 'expression'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'step-ids'
  | 'routes'
  | 'metrics'
  | 'tool-names'
  | 'array'
  | 'map'
  | 'json'
  | 'any'

/** Lists with an editor of their own, named by the schema's `format`. */
const LIST_WIDGETS: ReadonlySet<Widget> = new Set(['step-ids', 'routes', 'metrics', 'tool-names'])

function listWidget(format: PropertySchema['format']): Widget {
  return format !== undefined && LIST_WIDGETS.has(format as Widget) ? (format as Widget) : 'array'
}

/** Widgets that edit a string, so a template is just their text. */
const STRING_WIDGETS: ReadonlySet<Widget> = new Set(['text', 'multiline', 'expression', 'any'])

export function isStringWidget(widget: Widget): boolean {
  return STRING_WIDGETS.has(widget)
}

export function typesOf(schema: PropertySchema): JsonType[] {
  const t = schema.type
  if (t === undefined) return []
  return (Array.isArray(t) ? t : [t]).filter((x) => x !== 'null')
}

export function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as 'string' | 'boolean' | 'object'
}

/** The declared type the value is edited as: its own when the schema allows it, else the first. */
function chosenType(types: JsonType[], value: JsonValue | undefined): JsonType | undefined {
  if (value !== undefined) {
    const own = jsonTypeOf(value)
    if (types.includes(own)) return own
    if (own === 'integer' && types.includes('number')) return 'number'
    if (own === 'number' && types.includes('integer')) return 'integer'
  }
  return types[0]
}

export function widgetFor(schema: PropertySchema, value: JsonValue | undefined): Widget {
  if (schema.enum && schema.enum.length > 0) return 'enum'
  switch (chosenType(typesOf(schema), value)) {
    case undefined:
    case 'null':
      return 'any'
    case 'string':
      if (schema.format === 'multiline') return 'multiline'
      if (schema.format === 'expression') return 'expression'
      return 'text'
    case 'number':
      return 'number'
    case 'integer':
      return 'integer'
    case 'boolean':
      return 'boolean'
    case 'array':
      return listWidget(schema.format)
    case 'object': {
      const extra = schema.additionalProperties
      return extra === true || (typeof extra === 'object' && extra !== null) ? 'map' : 'json'
    }
  }
}

/** `default: 10` — the declared default, which is the value the engine uses. */
export function defaultHint(schema: PropertySchema): string | undefined {
  const d = schema.default
  if (d === undefined) return undefined
  return `default: ${typeof d === 'string' ? d : JSON.stringify(d)}`
}

/** The schema of a map's values (`additionalProperties`), untyped when it only says `true`. */
export function valueSchema(schema: PropertySchema): PropertySchema {
  const extra = schema.additionalProperties
  return typeof extra === 'object' && extra !== null ? extra : {}
}

/** A fresh value for a new array item or map entry of this schema. */
export function emptyValue(schema: PropertySchema): JsonValue {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0]
  switch (typesOf(schema)[0]) {
    case 'number':
    case 'integer':
      return schema.minimum ?? 0
    case 'boolean':
      return false
    case 'array':
      return []
    case 'object':
      return {}
    default:
      return ''
  }
}

/**
 * A string turned into the schema's typed value when it reads as one (`"10"` → 10, `"true"` →
 * true, JSON text → its value), for switching a template field back to the typed editor.
 */
export function fromText(widget: Widget, text: string): JsonValue | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  if (widget === 'number' || widget === 'integer') {
    const n = Number(trimmed)
    return Number.isFinite(n) && (widget === 'number' || Number.isInteger(n)) ? n : undefined
  }
  if (widget === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : undefined
  if (widget === 'enum') return text
  try {
    const parsed = JSON.parse(trimmed) as JsonValue
    if (widget === 'array' || LIST_WIDGETS.has(widget)) return Array.isArray(parsed) ? parsed : undefined
    if (widget === 'map' || widget === 'json') return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
  return undefined
}
