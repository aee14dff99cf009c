import Box from '@mui/material/Box'
import { useState } from 'react'
import type { JsonValue, PropertySchema } from '../../api/types'
import AnyField from './AnyField'
import type { FieldProps } from './fieldProps'
import JsonField from './JsonField'
import ModeToggle from './ModeToggle'
import { defaultHint, fromText, isStringWidget, widgetFor } from './schema'
import TemplateField from './TemplateField'
import TypedField from './TypedField'

export interface SchemaFieldProps extends FieldProps {
  schema: PropertySchema
}

/** How a template-mode field shows a typed value until the person types over it. */
function asText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/**
 * One value edited by the widget its schema declares. A typed (non-string) field holding a
 * string — a template such as `"{{ inputs.limit }}"` — is shown as a template, with a toggle
 * back to the typed widget (which converts the text when it reads as a value).
 */
export default function SchemaField(p: SchemaFieldProps) {
  const { schema } = p
  const widget = widgetFor(schema, p.value)
  // The mode the person chose, while the value is the one it was chosen (or last typed) with.
  const [chosen, setChosen] = useState<{ of: JsonValue | undefined; template: boolean }>()
  const props = { ...p, description: p.description ?? schema.description, placeholder: p.placeholder ?? defaultHint(schema) }
  const mode = schema.format === 'expression' ? 'expression' : 'template'

  if (isStringWidget(widget)) {
    if (widget === 'any') return <AnyField {...props} mode={mode} />
    if (typeof p.value === 'object' && p.value !== null) return <JsonField {...props} />
    return <TemplateField {...props} value={asText(p.value)} mode={widget === 'expression' ? 'expression' : 'template'} multiline={widget === 'multiline'} />
  }

  // A string is a template here unless it is one of an enum's values.
  const derived = typeof p.value === 'string' && !(widget === 'enum' && schema.enum?.includes(p.value))
  const template = chosen && chosen.of === p.value ? chosen.template : derived
  const toggle = () => {
    if (!template) return setChosen({ of: p.value, template: true })
    const typed = typeof p.value === 'string' ? fromText(widget, p.value) : p.value
    if (typed !== undefined && typed !== p.value) return p.onChange(typed)
    setChosen({ of: p.value, template: false })
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {template ? (
          <TemplateField
            {...props}
            value={asText(p.value)}
            mode={mode}
            onChange={(text) => {
              setChosen({ of: text, template: true })
              p.onChange(text)
            }}
          />
        ) : (
          <TypedField {...props} widget={widget} />
        )}
      </Box>
      <ModeToggle label={`Template mode for ${p.label}`} pressed={template} text="{{}}" onClick={toggle} />
    </Box>
  )
}
