//! Which keys the page's shortcuts may take: not those typed into something that takes keys
//! itself.

const TAKES_KEYS = 'input, textarea, select, [contenteditable="true"], [contenteditable=""], [role="dialog"], [role="menu"], [role="listbox"]'

/** Whether `target` takes typed keys itself: a field, editable text, or inside a dialog, menu or list box. */
export function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (target instanceof HTMLElement && target.isContentEditable) || target.closest(TAKES_KEYS) !== null
}
