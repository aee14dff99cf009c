//! Completion state for one field: debounced requests to the engine's completer, answers to any
//! but the latest request dropped, and the highlighted item.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { Completion } from '../../api/types'
import type { Completer } from './types'

/** Typing pauses this long before a request goes out; Ctrl+Space asks at once. */
export const COMPLETION_DEBOUNCE_MS = 120

/** The DOM id of a completion option, for `aria-activedescendant`. */
export function optionId(listId: string, index: number): string {
  return `${listId}-${index}`
}

export interface CompletionState {
  from: number
  to: number
  items: Completion[]
  active: number
}

export function useCompletion(complete: Completer, target: { stepId?: string; field: string }) {
  const [state, setState] = useState<CompletionState>()
  const latest = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const { stepId, field } = target

  const close = useCallback(() => {
    latest.current += 1 // whatever is in flight is now stale
    clearTimeout(timer.current)
    setState(undefined)
  }, [])

  const request = useCallback(
    (text: string, cursor: number, immediate: boolean) => {
      const id = ++latest.current
      clearTimeout(timer.current)
      const ask = () =>
        complete({ stepId, field, text, cursor }).then(
          (r) => {
            if (id !== latest.current) return
            setState(r.items.length > 0 ? { from: r.from, to: r.to, items: r.items, active: 0 } : undefined)
          },
          () => id === latest.current && setState(undefined),
        )
      if (immediate) void ask()
      else timer.current = setTimeout(ask, COMPLETION_DEBOUNCE_MS)
    },
    [complete, stepId, field],
  )

  const move = useCallback((delta: number) => {
    setState((s) => s && { ...s, active: (s.active + delta + s.items.length) % s.items.length })
  }, [])

  useEffect(() => () => clearTimeout(timer.current), [])
  return { state, request, close, move }
}
