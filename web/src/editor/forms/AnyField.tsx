import Box from '@mui/material/Box'
import { useState } from 'react'
import type { JsonValue } from '../../api/types'
import type { FieldProps } from './fieldProps'
import JsonField from './JsonField'
import ModeToggle from './ModeToggle'
import TemplateField from './TemplateField'

/**
 * An untyped value (`items: {}` or no `type`): text with templates when it is a string (a merge
 * `arrays` item, a loop's `items`), raw JSON otherwise, with a toggle between the two.
 */
export default function AnyField(p: FieldProps & { mode?: 'template' | 'expression' }) {
  const [chosen, setChosen] = useState<{ of: JsonValue | undefined; json: boolean }>()
  const json = chosen && chosen.of === p.value ? chosen.json : p.value !== undefined && typeof p.value !== 'string'
  const keep = (json: boolean) => (value: JsonValue | undefined) => {
    setChosen({ of: value, json })
    p.onChange(value)
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {json ? (
          <JsonField {...p} onChange={keep(true)} />
        ) : (
          <TemplateField {...p} value={typeof p.value === 'string' ? p.value : undefined} mode={p.mode} onChange={keep(false)} />
        )}
      </Box>
      <ModeToggle label={`JSON mode for ${p.label}`} pressed={json} text="{ }" onClick={() => setChosen({ of: p.value, json: !json })} />
    </Box>
  )
}
