//! The Chat panel's state: whether it is open, what answers (the server's chat configuration and
//! the choices made in the panel), the kept sessions, and the conversation shown — folded by
//! `chatReducer`. Components read it through narrow selectors; chatActions.ts does the talking.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { ChatConfig, ChatMode, ChatSessionSummary } from '../api/types'
import { chatReducer, emptyThread, type ChatAction, type ChatThread } from './chatReducer'

export interface ChatStore extends ChatThread {
  open: boolean
  /** The session list is shown instead of the conversation. */
  browsing: boolean
  config?: ChatConfig
  configError?: string
  sessions: ChatSessionSummary[]
  sessionsError?: string
  /** A session is being read from the history. */
  loading: boolean
  /** Something the panel should say about the last thing it tried (open, delete, export). */
  notice?: { tone: 'error' | 'info'; text: string }
  /** The model and mode the next question asks for. */
  model?: string
  mode: ChatMode
  /** Agent mode may change the knowledge base (vai_ingest) in this conversation: off until the
   * person turns it on, and off again for every other conversation. */
  allowWrites: boolean
  /** Fold a question asked, a server message, a loaded session. */
  apply(action: ChatAction): void
  set(partial: Partial<Omit<ChatStore, 'apply' | 'set' | keyof ChatThread>>): void
}

function threadOf({ sessionId, turns }: ChatThread): ChatThread {
  return { sessionId, turns }
}

export function createChatStore(): StoreApi<ChatStore> {
  return createStore<ChatStore>()((set, get) => ({
    ...emptyThread,
    open: false,
    browsing: false,
    sessions: [],
    loading: false,
    mode: 'pipeline',
    allowWrites: false,
    apply: (action) => {
      const before = threadOf(get())
      const after = chatReducer(before, action)
      // Replacing the thread's keys drops a previous session id when the thread is cleared.
      if (after !== before) set({ sessionId: after.sessionId, turns: after.turns })
    },
    set: (partial) => set(partial),
  }))
}

/** A narrow selector over the app's Chat panel state: the component re-renders only when its answer changes. */
export function useChatStore<T>(selector: (s: ChatStore) => T): T {
  return useStore(useApp().stores.chat, selector)
}
