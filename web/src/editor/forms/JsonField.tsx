import TextField from '@mui/material/TextField'
import { useState } from 'react'
import type { JsonValue } from '../../api/types'
import { monoFont } from '../../theme'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import { sameJson } from './objects'
import { readJson, showJson } from './values'

interface Props extends FieldProps {
  /** Why a parsed value is refused (e.g. "Must be a JSON array"), or undefined to accept it. */
  check?(value: JsonValue): string | undefined
  rows?: number
}

/**
 * Raw JSON for what the form has no widget for. Invalid text shows why and changes nothing;
 * clearing an optional field removes its key.
 */
export default function JsonField(p: Props) {
  const [draft, setDraft] = useState(() => ({ text: showJson(p.value), of: p.value }))
  // An outside change (undo, a form field) replaces the text; our own echo leaves it alone.
  if (!sameJson(draft.of, p.value)) setDraft({ text: showJson(p.value), of: p.value })
  const parsed = readJson(draft.text, p.check)
  const note = parsed.error ?? (parsed.value === undefined && p.required ? 'Required' : undefined)
  return (
    <TextField
      label={p.label}
      value={draft.text}
      required={p.required}
      placeholder={p.placeholder}
      multiline
      minRows={Math.min(p.rows ?? 2, 12)}
      maxRows={24}
      error={Boolean(note) || hasError(p.diagnostics)}
      helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} note={note} />}
      fullWidth
      onChange={(e) => {
        const next = readJson(e.target.value, p.check)
        const emit = !next.error && !(next.value === undefined && p.required) && !sameJson(next.value, p.value)
        setDraft({ text: e.target.value, of: emit ? next.value : p.value })
        if (emit) p.onChange(next.value)
      }}
      slotProps={{
        // A placeholder ("default: 10") only shows above a raised label.
        inputLabel: p.placeholder ? { shrink: true } : undefined,
        htmlInput: { ...fieldAttrs(p.field), spellCheck: false, style: { fontFamily: monoFont, fontSize: 12 } },
      }}
    />
  )
}
