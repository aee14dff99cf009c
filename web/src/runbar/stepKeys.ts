//! The step-through keys, as a pure decision over a key event: Space or → runs the paused step
//! (Next), B toggles the breakpoint of the selected step. Keys typed into a field, a menu or a
//! dialog are theirs, and so is Space on a focused button (it presses that button).
import { ownsKeys } from '../shell/ownsKeys'

export type StepKey = 'next' | 'breakpoint'

/** What `aria-keyshortcuts` says of Next and the breakpoint markers. */
export const NEXT_KEYS = 'Space ArrowRight'
export const BREAKPOINT_KEY = 'B'

export interface KeyContext {
  paused: boolean
  /** A step node is selected in the read-only canvas. */
  stepSelected: boolean
}

export function stepKeyOf(
  event: Pick<KeyboardEvent, 'key' | 'target' | 'ctrlKey' | 'metaKey' | 'altKey' | 'defaultPrevented' | 'repeat'>,
  context: KeyContext,
): StepKey | undefined {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return undefined
  const target = event.target instanceof Element ? event.target : undefined
  if (ownsKeys(event.target)) return undefined
  if (context.paused && event.key === ' ' && !target?.closest('button, a[href], [role="button"]')) return 'next'
  // On a focused canvas node, arrow keys move the node.
  if (context.paused && event.key === 'ArrowRight' && !target?.closest('.react-flow__node')) return 'next'
  if (context.stepSelected && (event.key === 'b' || event.key === 'B')) return 'breakpoint'
  return undefined
}
