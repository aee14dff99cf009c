import TextField from '@mui/material/TextField'
import { useState } from 'react'
import type { Diagnostic } from '../../api/types'
import { hasError } from './diagnostics'
import { fieldAttrs } from './fieldProps'
import FieldMessages from './FieldMessages'

interface Props {
  label: string
  field: string
  value: string
  required?: boolean
  description?: string
  diagnostics?: readonly Diagnostic[]
  /** Instant feedback while typing: why the text cannot be committed. */
  validate?(text: string): string | undefined
  /** Applies the text; resolves to an error to show, or undefined when done. */
  onCommit(text: string): Promise<string | undefined> | string | undefined
}

/**
 * A name edited as a draft and applied on Enter or leaving the field (a rename rewrites
 * references, so it must not run per keystroke). Escape restores the current name.
 */
export default function CommitField(p: Props) {
  const [draft, setDraft] = useState({ text: p.value, of: p.value, error: undefined as string | undefined, busy: false })
  if (draft.of !== p.value) setDraft({ text: p.value, of: p.value, error: undefined, busy: false })
  const local = p.validate?.(draft.text)
  const note = local ?? draft.error

  const commit = async () => {
    if (draft.text === p.value || local || draft.busy) return
    setDraft((d) => ({ ...d, busy: true, error: undefined }))
    const error = await p.onCommit(draft.text)
    // On success the new name has arrived as `value` and replaced the draft (not busy): the same
    // state again, so no second render lands between the edit and its frame.
    setDraft((d) => (d.busy || d.error !== error ? { ...d, busy: false, error } : d))
  }

  return (
    <TextField
      label={p.label}
      value={draft.text}
      required={p.required}
      error={Boolean(note) || hasError(p.diagnostics ?? [])}
      helperText={<FieldMessages diagnostics={p.diagnostics ?? []} description={p.description} note={note} />}
      fullWidth
      onChange={(e) => setDraft({ ...draft, text: e.target.value, error: undefined })}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault()
          void commit()
        } else if (e.key === 'Escape') {
          e.stopPropagation()
          setDraft({ text: p.value, of: p.value, error: undefined, busy: false })
        }
      }}
      slotProps={{ htmlInput: { ...fieldAttrs(p.field), spellCheck: false, autoComplete: 'off', 'aria-busy': draft.busy || undefined } }}
    />
  )
}
