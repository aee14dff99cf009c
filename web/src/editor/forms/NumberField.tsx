import TextField from '@mui/material/TextField'
import { useState } from 'react'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import { readNumber } from './values'

interface Props extends FieldProps<number> {
  integer?: boolean
  minimum?: number
  maximum?: number
}

/**
 * A number or integer. The text is kept while it does not read as an acceptable number (a
 * message says why) and the document keeps its last good value; clearing removes the key.
 */
export default function NumberField(p: Props) {
  const [draft, setDraft] = useState({ text: p.value === undefined ? '' : String(p.value), of: p.value })
  // An outside change (undo, another view) replaces the text; our own echo leaves it alone.
  if (draft.of !== p.value) setDraft({ text: p.value === undefined ? '' : String(p.value), of: p.value })
  const read = readNumber(draft.text, p)
  return (
    <TextField
      label={p.label}
      value={draft.text}
      required={p.required}
      placeholder={p.placeholder}
      error={Boolean(read.error) || hasError(p.diagnostics)}
      helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} note={read.error} />}
      fullWidth
      onChange={(e) => {
        const text = e.target.value
        const next = readNumber(text, p)
        setDraft({ text, of: next.error ? p.value : next.value })
        if (!next.error && next.value !== p.value) p.onChange(next.value)
      }}
      slotProps={{
        // A placeholder ("default: 10") only shows above a raised label.
        inputLabel: p.placeholder ? { shrink: true } : undefined,
        htmlInput: { ...fieldAttrs(p.field), inputMode: p.integer ? 'numeric' : 'decimal', spellCheck: false, autoComplete: 'off' },
      }}
    />
  )
}
