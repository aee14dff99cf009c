//! `P` toggles presenter mode and Escape leaves it — but never while the user types (an input,
//! a textarea, a contenteditable) or while a dialog, drawer or menu is open: there Escape
//! closes that, and P is a letter.
import { useEffect } from 'react'
import { useApp } from '../app/AppContext'
import { ownsKeys } from './ownsKeys'

/** An MUI modal (dialog, temporary drawer, menu, popover) is open. */
function modalOpen(): boolean {
  return document.querySelector('.MuiModal-root:not(.MuiModal-hidden), [role="dialog"]') !== null
}

type KeyFacts = Pick<KeyboardEvent, 'key' | 'target' | 'ctrlKey' | 'metaKey' | 'altKey' | 'defaultPrevented' | 'repeat'>

/** What a key does to presenter mode (`on`: it is on now), if anything. */
export function presenterKey(event: KeyFacts, on: boolean): 'toggle' | 'leave' | undefined {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return undefined
  if (ownsKeys(event.target) || modalOpen()) return undefined
  if (event.key === 'p' || event.key === 'P') return 'toggle'
  if (event.key === 'Escape' && on) return 'leave'
  return undefined
}

export function usePresenterKeys(): void {
  const store = useApp().stores.presenter
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const presenter = store.getState()
      const action = presenterKey(event, presenter.on)
      if (!action) return
      event.preventDefault()
      presenter.set(action === 'toggle' ? !presenter.on : false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [store])
}
