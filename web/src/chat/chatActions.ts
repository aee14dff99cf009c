//! What the Chat panel does: open and close (remembered in the address bar), read the chat
//! configuration and the kept sessions, ask and stop over the app's one socket, open or delete a
//! session, open an answer's tool calls as a workflow in the builder — and where what the socket
//! hears about chat goes (`receive`, wired in state/runWiring.ts).
import type { ChatServerMessage } from '../api/socket'
import type { App } from '../app/createApp'
import { ApiError, errorInfo } from '../api/client'
import type { ChatAsk, JsonValue, Workflow } from '../api/types'
import { isRecord } from '../state/definition'
import { chatParam, NEW_CHAT, setChatParam } from './chatLocation'
import { inProgress } from './chatReducer'

function kb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`
}

/** Why `question` cannot be asked as it is (too long for the server), if it cannot. */
export function questionProblem(question: string, maxBytes: number): string | undefined {
  const bytes = new TextEncoder().encode(question).length
  if (bytes <= maxBytes) return undefined
  return `The question is ${kb(bytes)}; a question may be at most ${kb(maxBytes)}. Shorten it, or ask about one part at a time.`
}

function asWorkflow(value: JsonValue): Workflow | undefined {
  return isRecord(value) && typeof value.name === 'string' && Array.isArray(value.steps) ? (value as unknown as Workflow) : undefined
}

export interface ChatActions {
  /** Whether a question of this page is waiting for, or receiving, its answer. */
  isAnswering(): boolean
  open(): void
  close(): void
  /** On page load: the panel as the address bar left it, with its conversation. */
  restore(): void
  loadConfig(): Promise<void>
  loadSessions(): Promise<void>
  /** Show a kept session (its turns as they were kept). Not while an answer is being written. */
  openSession(id: string): Promise<void>
  /** Start a new conversation (the next question names it). */
  newChat(): void
  deleteSession(id: string): Promise<void>
  /** Ask `question` in the conversation shown; false when it was not sent (and why is shown). */
  ask(question: string): boolean
  /** Stop the answer being written (it is kept as stopped, with what had arrived). */
  stopAnswer(): void
  /** What the socket heard about chat: a turn's event, or a question refused. */
  receive(message: ChatServerMessage): void
  /** The socket closed: the server stopped the answer being written. */
  connectionLost(): void
  /** Open the tool calls of turn `turnId` in the builder, as a new unsaved workflow. */
  openAsWorkflow(turnId: string): Promise<void>
}

export function createChatActions(app: App): ChatActions {
  const { stores, api, socket } = app
  const store = () => stores.chat.getState()
  /** Tells a later session read from an earlier one that answers late. */
  let reading = 0
  /** Numbers the questions asked, for their keys until the server names their turns. */
  let asked = 0

  const chat: ChatActions = {
    isAnswering: () => {
      const { turns } = store()
      return inProgress(turns[turns.length - 1])
    },

    open: () => {
      store().set({ open: true })
      setChatParam(store().sessionId ?? NEW_CHAT)
      void chat.loadConfig()
      void chat.loadSessions()
    },

    close: () => {
      store().set({ open: false })
      setChatParam(null)
    },

    restore: () => {
      const param = chatParam()
      if (param === null) return
      store().set({ open: true })
      void chat.loadConfig()
      void chat.loadSessions()
      if (param !== NEW_CHAT) void chat.openSession(param)
    },

    loadConfig: async () => {
      try {
        const config = await api.chatConfig()
        const first = store().config === undefined
        const mode = config.supportsTools ? config.mode : 'pipeline'
        store().set({ config, configError: undefined, ...(first ? { model: config.model, mode } : {}) })
      } catch (e) {
        store().set({ configError: `Cannot read the chat configuration: ${errorInfo(e).message}` })
      }
    },

    loadSessions: async () => {
      try {
        const { sessions } = await api.chatSessions()
        store().set({ sessions, sessionsError: undefined })
      } catch (e) {
        store().set({ sessionsError: errorInfo(e).message })
      }
    },

    openSession: async (id) => {
      if (chat.isAnswering()) return
      const mine = ++reading
      store().set({ loading: true, browsing: false, notice: undefined })
      try {
        const session = await api.chatSession(id)
        if (mine !== reading) return
        store().apply({ type: 'loaded', session })
        store().set({ allowWrites: false })
        setChatParam(session.id)
      } catch (e) {
        if (mine !== reading) return
        if (e instanceof ApiError && e.status === 404) {
          store().apply({ type: 'cleared' })
          store().set({
            notice: { tone: 'info', text: 'That conversation is no longer kept (it was deleted, or the history was cleared). This is a new one.' },
          })
          setChatParam(store().open ? NEW_CHAT : null)
        } else {
          store().set({ notice: { tone: 'error', text: `Cannot open the conversation: ${errorInfo(e).message}` } })
        }
      } finally {
        if (mine === reading) store().set({ loading: false })
      }
    },

    newChat: () => {
      if (chat.isAnswering()) return
      reading += 1
      store().apply({ type: 'cleared' })
      store().set({ browsing: false, loading: false, notice: undefined, allowWrites: false })
      if (store().open) setChatParam(NEW_CHAT)
    },

    deleteSession: async (id) => {
      try {
        await api.deleteChatSession(id)
        if (store().sessionId === id) chat.newChat()
        store().set({ sessions: store().sessions.filter((s) => s.id !== id) })
      } catch (e) {
        store().set({ notice: { tone: 'error', text: `Cannot delete the conversation: ${errorInfo(e).message}` } })
      }
      void chat.loadSessions()
    },

    ask: (question) => {
      const { config, sessionId, mode, model, allowWrites } = store()
      if (!question.trim() || chat.isAnswering() || !config?.available) return false
      const problem = questionProblem(question, config.maxQuestionBytes)
      if (problem) {
        store().set({ notice: { tone: 'error', text: problem } })
        return false
      }
      const request: ChatAsk = { question, mode }
      if (sessionId) request.sessionId = sessionId
      if (model && model !== config.model) request.model = model
      if (mode === 'agent' && allowWrites) request.allowWrites = true
      if (!socket.ask(request)) {
        store().set({
          notice: {
            tone: 'error',
            text: 'Not connected to the playground, so the question was not sent. The page reconnects by itself: try again in a moment.',
          },
        })
        return false
      }
      asked += 1
      store().set({ notice: undefined })
      store().apply({ type: 'asked', key: `asked-${asked}`, question, mode })
      return true
    },

    stopAnswer: () => {
      const { sessionId } = store()
      if (sessionId && chat.isAnswering()) socket.cancelChat(sessionId)
    },

    receive: (message) => {
      if (message.type === 'error') {
        store().apply({ type: 'refused', message: message.message, sessionId: message.sessionId })
        return
      }
      const wasNew = store().sessionId === undefined
      store().apply({ type: 'event', sessionId: message.sessionId, event: message.event })
      const { sessionId, open } = store()
      if (sessionId !== message.sessionId) return
      if (wasNew && open) setChatParam(sessionId)
      if (message.event.type === 'turn_finished') void chat.loadSessions()
    },

    connectionLost: () => {
      store().apply({
        type: 'interrupted',
        message: 'The connection to the playground was lost, which stopped this answer. What had arrived is kept; ask again once the page has reconnected.',
      })
    },

    openAsWorkflow: async (turnId) => {
      const { sessionId } = store()
      if (!sessionId) return
      try {
        const doc = asWorkflow(await api.chatWorkflow(sessionId, turnId))
        if (!doc) throw new Error('the server did not send a workflow')
        if (!(await app.editing.confirmLeave())) return
        app.editing.stop(true)
        await app.editing.start({ kind: 'new', doc })
        store().set({ notice: { tone: 'info', text: `“${doc.name}” is open in the builder as a new, unsaved workflow.` } })
      } catch (e) {
        store().set({ notice: { tone: 'error', text: `Cannot open the tool calls as a workflow: ${errorInfo(e).message}` } })
      }
    },
  }
  return chat
}
