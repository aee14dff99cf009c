import TextField from '@mui/material/TextField'
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { monoFont } from '../../theme'
import CompletionList from './CompletionList'
import { applyCompletion, insideTemplate } from './completionText'
import { hasError } from './diagnostics'
import { fieldAttrs, type FieldProps } from './fieldProps'
import FieldMessages from './FieldMessages'
import { useFormContext } from './FormContext'
import { optionId, useCompletion } from './useCompletion'

interface Props extends Omit<FieldProps<string>, 'onChange'> {
  onChange(value: string | undefined): void
  /** `expression`: the whole text is an expression, so completion applies anywhere. */
  mode?: 'template' | 'expression'
  multiline?: boolean
}

/**
 * A string that may hold `{{ … }}` templates, with completion from the engine (on typing inside
 * a template or an expression, and on Ctrl+Space) and the field's diagnostics underneath.
 * Clearing an optional field removes its key.
 */
export default function TemplateField(p: Props) {
  const { complete, stepId } = useFormContext()
  const { state, request, close, move } = useCompletion(complete, { stepId, field: p.field })
  const listId = useId()
  const [anchor, setAnchor] = useState<HTMLDivElement | null>(null)
  const input = useRef<HTMLInputElement | HTMLTextAreaElement>(null)
  const pendingCursor = useRef<number>(undefined)
  const value = p.value ?? ''
  const expression = p.mode === 'expression'

  useLayoutEffect(() => {
    if (pendingCursor.current === undefined || !input.current) return
    input.current.setSelectionRange(pendingCursor.current, pendingCursor.current)
    pendingCursor.current = undefined
  }, [value])

  const emit = (text: string) => p.onChange(text === '' && !p.required ? undefined : text)

  const pick = (index: number) => {
    const item = state?.items[index]
    if (!state || !item) return
    const next = applyCompletion(value, state, item)
    pendingCursor.current = next.cursor
    close()
    emit(next.text)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (e.ctrlKey && (e.key === ' ' || e.code === 'Space')) {
      e.preventDefault()
      request(value, e.currentTarget.selectionStart ?? value.length, true)
      return
    }
    if (!state) return
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') move(e.key === 'ArrowDown' ? 1 : -1)
    else if (e.key === 'Enter' || e.key === 'Tab') pick(state.active)
    else if (e.key === 'Escape') {
      // Escape closes the popup only; the editor must not also take it (deselect, leave a mode).
      e.stopPropagation()
      close()
    } else return
    e.preventDefault()
  }

  const errorShown = hasError(p.diagnostics)
  return (
    <>
      <TextField
        ref={setAnchor}
        inputRef={input}
        label={p.label}
        value={value}
        required={p.required}
        placeholder={p.placeholder}
        multiline={p.multiline}
        minRows={p.multiline ? 3 : undefined}
        maxRows={p.multiline ? 12 : undefined}
        error={errorShown}
        helperText={<FieldMessages diagnostics={p.diagnostics} description={p.description} />}
        fullWidth
        onChange={(e) => {
          const text = e.target.value
          emit(text)
          const cursor = e.target.selectionStart ?? text.length
          if (expression || insideTemplate(text, cursor)) request(text, cursor, false)
          else close()
        }}
        onBlur={close}
        slotProps={{
          // A placeholder ("default: 10") only shows above a raised label.
          inputLabel: p.placeholder ? { shrink: true } : undefined,
          htmlInput: {
            ...fieldAttrs(p.field),
            spellCheck: false,
            autoComplete: 'off',
            'aria-autocomplete': 'list',
            'aria-controls': state ? listId : undefined,
            'aria-activedescendant': state ? optionId(listId, state.active) : undefined,
            onKeyDown,
            style: { fontFamily: monoFont, fontSize: 12 },
          },
        }}
      />
      <CompletionList id={listId} label={p.label} anchor={anchor} state={state} onPick={pick} />
    </>
  )
}
