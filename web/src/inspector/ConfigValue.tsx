import Box from '@mui/material/Box'
import { isRecord } from '../state/definition'
import { monoFont } from '../theme'
import { childPointer } from './templateParts'
import TemplateText from './TemplateText'

/**
 * A configured value of any JSON shape; strings may hold templates. `pointer` (the value's JSON
 * pointer in the document) lets their references be looked up in the reference index.
 */
export default function ConfigValue({ value, pointer }: { value: unknown; pointer?: string }) {
  const child = (key: string | number) => (pointer === undefined ? undefined : childPointer(pointer, key))
  if (typeof value === 'string') return <TemplateText value={value} pointer={pointer} />
  if (Array.isArray(value)) {
    if (value.length === 0) return <Mono text="[]" />
    return (
      <Box component="ol" start={0} sx={{ m: 0, pl: 2.5 }}>
        {value.map((item, i) => (
          <li key={i}>
            <ConfigValue value={item} pointer={child(i)} />
          </li>
        ))}
      </Box>
    )
  }
  if (isRecord(value)) {
    const entries = Object.entries(value)
    if (entries.length === 0) return <Mono text="{}" />
    return (
      <Box component="dl" sx={{ m: 0, pl: 1.5 }}>
        {entries.map(([k, v]) => (
          <Box key={k} sx={{ display: 'flex', gap: 1 }}>
            <Box component="dt" sx={{ fontFamily: monoFont, fontSize: 12, color: 'text.secondary' }}>
              {k}:
            </Box>
            <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
              <ConfigValue value={v} pointer={child(k)} />
            </Box>
          </Box>
        ))}
      </Box>
    )
  }
  return <Mono text={JSON.stringify(value) ?? 'undefined'} />
}

function Mono({ text }: { text: string }) {
  return (
    <Box component="span" sx={{ fontFamily: monoFont, fontSize: 12, color: 'warning.main' }}>
      {text}
    </Box>
  )
}
