//! The Chat panel in the address bar: `?chat=new` while it is open on a new conversation,
//! `?chat=<session id>` once the conversation has one, absent while it is closed — so a reload
//! (or a shared link in this browser) comes back to the same conversation. It replaces the
//! history entry rather than adding one: opening the panel is not a navigation.

const PARAM = 'chat'
/** The value while the panel shows a conversation not yet asked. */
export const NEW_CHAT = 'new'

export function chatParam(): string | null {
  return new URL(window.location.href).searchParams.get(PARAM)
}

export function setChatParam(value: string | null): void {
  const url = new URL(window.location.href)
  if (value === null) url.searchParams.delete(PARAM)
  else url.searchParams.set(PARAM, value)
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url)
}
