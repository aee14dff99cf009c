import type { JsonValue } from '../../api/types'
import ArrayField from './ArrayField'
import BooleanField from './BooleanField'
import EnumField from './EnumField'
import JsonField from './JsonField'
import MapField from './MapField'
import MetricsEditor from './MetricsEditor'
import NumberField from './NumberField'
import RoutesEditor from './RoutesEditor'
import type { SchemaFieldProps } from './SchemaField'
import type { Widget } from './schema'
import StepIdsField from './StepIdsField'
import ToolNamesField from './ToolNamesField'

function isStringArray(value: JsonValue | undefined): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string')
}

function only<T extends JsonValue>(value: JsonValue | undefined, test: (v: JsonValue) => v is T): T | undefined {
  return value !== undefined && test(value) ? value : undefined
}

const isNumber = (v: JsonValue): v is number => typeof v === 'number'
const isBoolean = (v: JsonValue): v is boolean => typeof v === 'boolean'

/** The typed (non-string) widget for a schema; a value of another type shows as unset here. */
export default function TypedField({ widget, schema, ...p }: SchemaFieldProps & { widget: Widget }) {
  switch (widget) {
    case 'number':
    case 'integer':
      return <NumberField {...p} value={only(p.value, isNumber)} integer={widget === 'integer'} minimum={schema.minimum} maximum={schema.maximum} />
    case 'boolean':
      return <BooleanField {...p} value={only(p.value, isBoolean)} fallback={schema.default} />
    case 'enum':
      return <EnumField {...p} options={schema.enum ?? []} />
    case 'step-ids':
      if (p.value === undefined || isStringArray(p.value) || typeof p.value === 'string')
        return <StepIdsField {...p} value={isStringArray(p.value) ? p.value : undefined} />
      return <JsonField {...p} check={(v) => (isStringArray(v) ? undefined : 'Must be an array of step ids')} />
    case 'routes':
      if (p.value === undefined || Array.isArray(p.value)) return <RoutesEditor {...p} />
      return <JsonField {...p} check={(v) => (Array.isArray(v) ? undefined : 'Must be a list of routes')} />
    case 'metrics':
      if (p.value === undefined || Array.isArray(p.value)) return <MetricsEditor {...p} />
      return <JsonField {...p} check={(v) => (Array.isArray(v) ? undefined : 'Must be a list of metrics')} />
    case 'tool-names':
      if (p.value === undefined || isStringArray(p.value)) return <ToolNamesField {...p} value={p.value} />
      return <JsonField {...p} check={(v) => (isStringArray(v) ? undefined : 'Must be a list of tool and workflow names')} />
    case 'array':
      return <ArrayField {...p} schema={schema} />
    case 'map':
      return <MapField {...p} schema={schema} />
    default:
      return <JsonField {...p} check={(v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'Must be a JSON object')} />
  }
}
