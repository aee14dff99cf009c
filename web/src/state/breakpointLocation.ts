//! The canvas's breakpoints in the address bar: `?break=a,b` (step ids, sorted), absent when
//! there are none — so a reload, or the same link in this browser, keeps them. It replaces the
//! history entry rather than adding one: setting a breakpoint is not a navigation.

const PARAM = 'break'

/** The step ids the address names, without empties or repeats. */
export function breakParam(): string[] {
  const value = new URL(window.location.href).searchParams.get(PARAM) ?? ''
  return [...new Set(value.split(',').filter((id) => id !== ''))].sort()
}

export function setBreakParam(ids: readonly string[]): void {
  const url = new URL(window.location.href)
  if (ids.length === 0) url.searchParams.delete(PARAM)
  else url.searchParams.set(PARAM, ids.join(','))
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url)
}
