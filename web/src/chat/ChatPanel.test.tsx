import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatConfig, ChatEvent, ChatSession, ChatTurn, ServerMessage } from '../api/types'
import { createApp } from '../app/createApp'
import { installFakeServer, type Call } from '../test/fakeServer'

// The canvas (React Flow) is tested on its own.
vi.mock('../canvas/Canvas', () => ({ default: () => <main aria-label="Canvas" /> }))

const { default: App } = await import('../App')

const config: ChatConfig = {
  available: true,
  provider: 'local',
  model: 'SmolLM2-135M-Instruct',
  label: 'local · SmolLM2-135M — small, grounded answers only',
  supportsTools: false,
  models: ['SmolLM2-135M-Instruct'],
  db: 'vai_demo',
  collection: 'api_docs',
  mode: 'pipeline',
  history: 'local',
  maxQuestionBytes: 16 * 1024,
}

const source = { index: 1, title: 'intro.md', text: 'vai composes RAG pipelines as workflow files.', score: 0.91, collection: 'api_docs' }

function turn(overrides: Partial<ChatTurn> = {}): ChatTurn {
  return {
    id: 't1',
    question: 'What is vai?',
    answer: 'vai composes RAG pipelines [1].',
    status: 'done',
    mode: 'pipeline',
    sources: [source],
    toolCalls: [],
    provider: 'local',
    model: 'SmolLM2-135M-Instruct',
    usage: {},
    timings: { retrievalMs: 10, generationMs: 900, totalMs: 1000 },
    startedAt: 1,
    ...overrides,
  }
}

const session = (turns: ChatTurn[]): ChatSession => ({ id: 's1', title: 'What is vai?', createdAt: 1, updatedAt: 2, turns })

function json(body: unknown, status = 200) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

/**
 * The fake server, answering the chat routes from `kept` (session id → session), with what its
 * side of the app's socket says.
 */
function serve(kept: Record<string, ChatSession> = {}, chat: ChatConfig = config) {
  const server = installFakeServer({
    respond: ({ method, path }: Call) => {
      if (path === '/api/chat/config') return json(chat)
      if (path === '/api/chat/sessions')
        return json({
          sessions: Object.values(kept).map((s) => ({ id: s.id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt, turnCount: s.turns.length })),
        })
      const workflow = path.match(/^\/api\/chat\/sessions\/([^/]+)\/turns\/([^/]+)\/workflow$/)
      if (workflow) return json({ name: 'Chat: What is vai?', steps: [{ id: 'query_1', tool: 'query', inputs: { query: '{{ inputs.question }}' } }] })
      const one = path.match(/^\/api\/chat\/sessions\/([^/]+)$/)
      if (one) {
        const found = kept[decodeURIComponent(one[1])]
        if (method === 'DELETE') return found ? json(undefined, 204) : json({ error: { code: 'NOT_FOUND', message: 'no chat session' } }, 404)
        return found ? json(found) : json({ error: { code: 'NOT_FOUND', message: `no chat session "${one[1]}"` } }, 404)
      }
      return undefined
    },
  })
  const socket = () => server.sockets[server.sockets.length - 1]
  const push = (message: ServerMessage) => act(() => socket().push(message))
  return { ...server, socket, push, chat: (event: ChatEvent, sessionId = 's1') => push({ type: 'chat', sessionId, event }) }
}

async function openPanel(server: ReturnType<typeof serve>) {
  render(<App />)
  fireEvent.click(screen.getByRole('button', { name: 'Show chat' }))
  const panel = await screen.findByRole('complementary', { name: 'Chat' })
  await within(panel).findByText(config.label)
  await waitFor(() => expect(server.socket()?.readyState).toBe(1))
  return panel
}

function askQuestion(panel: HTMLElement, text: string) {
  fireEvent.change(within(panel).getByRole('textbox', { name: 'Question' }), { target: { value: text } })
  fireEvent.click(within(panel).getByRole('button', { name: 'Ask' }))
}

describe('the Chat panel', () => {
  beforeEach(() => {
    localStorage.clear()
    window.history.replaceState(null, '', '/')
  })

  it('asks over the socket and streams the answer in, with its state and sources', async () => {
    const server = serve()
    const panel = await openPanel(server)
    expect(window.location.search).toBe('?chat=new')
    // The local model cannot call tools: agent mode is offered, but off.
    expect(within(panel).getByRole('button', { name: 'Agent' }).hasAttribute('disabled')).toBe(true)

    askQuestion(panel, 'What is vai?')
    expect(server.socket().sent).toContainEqual({ type: 'chat_ask', ask: { question: 'What is vai?', mode: 'pipeline' } })
    expect(within(panel).getByTestId('chat-state').textContent).toBe('Sending…')

    server.chat({ type: 'turn_started', sessionId: 's1', turnId: 't1', mode: 'pipeline', provider: 'local', model: config.model })
    server.chat({ type: 'state', state: 'retrieving', label: 'Searching vai_demo.api_docs' })
    expect(within(panel).getByTestId('chat-state').textContent).toBe('Searching vai_demo.api_docs')
    expect(window.location.search).toBe('?chat=s1')
    server.chat({ type: 'sources', sources: [source] })
    server.chat({ type: 'state', state: 'answering', label: 'Answering' })
    server.chat({ type: 'text', delta: 'vai composes' })
    expect(within(panel).getByTestId('chat-answer').textContent).toBe('vai composes')
    // Stop is offered while it answers.
    fireEvent.click(within(panel).getByRole('button', { name: 'Stop' }))
    expect(server.socket().sent).toContainEqual({ type: 'chat_cancel', sessionId: 's1' })
    server.chat({ type: 'text', delta: ' RAG pipelines [1].' })
    const usage = { llmInputTokens: 1800, llmOutputTokens: 64, embedTokens: 9, cost: { usd: 0, pricedAt: '2026-11-01' } }
    server.chat({ type: 'turn_finished', turn: turn({ usage }) })
    expect(within(panel).queryByTestId('chat-state')).toBeNull()
    // How it was answered, with the turn's tokens and cost.
    expect(within(panel).getByText('pipeline · SmolLM2-135M-Instruct · 1.0 s · in 1.8k · out 64 · embed 9 · $0')).toBeTruthy()
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/chat/sessions')).toHaveLength(2))

    // Sources are collapsed to a count; one opens in a dialog, from the list or a citation.
    fireEvent.click(within(panel).getByRole('button', { name: 'Sources (1)' }))
    fireEvent.click(within(within(panel).getByRole('list', { name: 'Sources' })).getByText('[1] intro.md'))
    const dialog = await screen.findByRole('dialog', { name: '[1] intro.md' })
    expect(within(dialog).getByTestId('chat-source-text').textContent).toBe(source.text)
    expect(within(dialog).getByText('from api_docs · relevance 0.91')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    fireEvent.click(within(panel).getByRole('button', { name: '[1]' }))
    await screen.findByRole('dialog', { name: '[1] intro.md' })
    // A pipeline answer made no tool calls: nothing to open as a workflow.
    expect(within(panel).queryByRole('button', { name: 'Open as workflow' })).toBeNull()
  })

  it('shows the passages a grounded answer quotes, highlights the one a citation follows, and says how it was made', async () => {
    const rotation = {
      index: 1,
      title: 'Key rotation',
      text: 'Keys. Rotate a key with `POST /keys/rotate`. The old key works for 24 hours.',
      passages: ['Rotate a key with `POST /keys/rotate`.', 'The old key works for 24 hours.'],
    }
    const auth = {
      index: 2,
      title: 'Authentication',
      text: 'Send the key in the Authorization header.',
      passages: ['Send the key in the Authorization header.'],
    }
    const answer = 'Send the key in the Authorization header. [2] Rotate a key with `POST /keys/rotate`. [1] The old key works for 24 hours. [1]'
    const grounded = turn({ question: 'How do I rotate an API key?', answer, sources: [rotation, auth], method: 'extractive' })
    const declined = turn({ id: 't2', question: 'Who won?', answer: 'The sources found do not answer this question.', sources: [source], method: 'declined' })
    const plain = turn({ id: 't3', question: 'What is vai?' })
    serve({ s1: session([grounded, declined, plain]) })
    window.history.replaceState(null, '', '/?chat=s1')
    render(<App />)
    const panel = await screen.findByRole('complementary', { name: 'Chat' })
    const [first, second, third] = await within(panel).findAllByTestId('chat-turn')

    // In the order the answer quotes them, each with its number and source title, as quoted.
    const passages = within(first).getAllByTestId('chat-passage')
    expect(passages.map((p) => p.textContent)).toEqual([
      '[2] AuthenticationSend the key in the Authorization header.',
      '[1] Key rotationRotate a key with POST /keys/rotate.',
      '[1] Key rotationThe old key works for 24 hours.',
    ])
    const answerText = within(first).getByTestId('chat-answer').textContent ?? ''
    for (const p of within(first).getAllByTestId('chat-passage-text')) expect(answerText).toContain(p.textContent)
    expect(within(first).getByTestId('answer-method').textContent).toBe('Quoted from the sources')
    expect(within(second).getByTestId('answer-method').textContent).toBe('Not in the sources')
    expect(within(second).queryByTestId('chat-passage')).toBeNull()
    // A turn without method or passages is drawn as before.
    expect(within(third).queryByTestId('answer-method')).toBeNull()
    expect(within(third).queryByTestId('chat-passage')).toBeNull()

    // The second [1] follows the second passage of source 1: it is highlighted, not opened.
    const cites = within(within(first).getByTestId('chat-answer')).getAllByRole('button', { name: '[1]' })
    fireEvent.click(cites[1])
    expect(passages.map((p) => p.dataset.highlighted)).toEqual([undefined, undefined, 'true'])
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(cites[0])
    expect(passages.map((p) => p.dataset.highlighted)).toEqual([undefined, 'true', undefined])
    // Again: the source opens.
    fireEvent.click(cites[0])
    await screen.findByRole('dialog', { name: '[1] Key rotation' })
  })

  it('shows a failed answer with its error, a stopped one as stopped, and a refused question', async () => {
    const server = serve({ s1: session([turn()]) })
    const panel = await openPanel(server)
    fireEvent.click(within(panel).getByRole('button', { name: 'Conversations' }))
    fireEvent.click(await within(panel).findByText('What is vai?'))
    await within(panel).findByText(/vai composes RAG pipelines/)

    askQuestion(panel, 'And then?')
    expect(server.socket().sent).toContainEqual({ type: 'chat_ask', ask: { sessionId: 's1', question: 'And then?', mode: 'pipeline' } })
    server.chat({ type: 'turn_started', sessionId: 's1', turnId: 't2', mode: 'pipeline', provider: 'local', model: config.model })
    server.chat({ type: 'text', delta: 'Half an' })
    server.chat({
      type: 'turn_finished',
      turn: turn({ id: 't2', question: 'And then?', answer: 'Half an', status: 'failed', error: 'local: the model stopped' }),
    })
    expect(within(panel).getByText(/The answer broke off: local: the model stopped/)).toBeTruthy()

    askQuestion(panel, 'Once more')
    server.chat({ type: 'turn_started', sessionId: 's1', turnId: 't3', mode: 'pipeline', provider: 'local', model: config.model })
    server.chat({ type: 'turn_finished', turn: turn({ id: 't3', question: 'Once more', answer: '', status: 'cancelled', sources: [] }) })
    expect(within(panel).getByText('Stopped before any answer.')).toBeTruthy()

    askQuestion(panel, 'Busy?')
    server.push({ type: 'error', code: 'BUSY', message: '4 chat answers are already being written; wait for one to finish' })
    expect(within(panel).getByText('Not asked: 4 chat answers are already being written; wait for one to finish')).toBeTruthy()
    // The panel takes questions again.
    expect(within(panel).queryByRole('button', { name: 'Stop' })).toBeNull()
  })

  it('refuses a question too long for the server, with its size, and sends nothing', async () => {
    const server = serve()
    const panel = await openPanel(server)
    const before = server.socket().sent.length
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Question' }), { target: { value: 'x'.repeat(100 * 1024) } })
    expect(within(panel).getByText('The question is 100 KB; a question may be at most 16 KB. Shorten it, or ask about one part at a time.')).toBeTruthy()
    expect(within(panel).getByRole('button', { name: 'Ask' }).hasAttribute('disabled')).toBe(true)
    fireEvent.keyDown(within(panel).getByRole('textbox', { name: 'Question' }), { key: 'Enter' })
    expect(server.socket().sent.length).toBe(before)
  })

  it('says how to get an LLM when none can answer', async () => {
    serve(
      {},
      { ...config, available: false, provider: '', model: '', label: 'no LLM', models: [], hint: 'no LLM is configured: run `bash scripts/fetch-model.sh`' },
    )
    render(<App />)
    fireEvent.click(screen.getByRole('button', { name: 'Show chat' }))
    const panel = await screen.findByRole('complementary', { name: 'Chat' })
    await within(panel).findByText('Chat needs an LLM')
    expect(within(panel).getByText('no LLM is configured: run `bash scripts/fetch-model.sh`')).toBeTruthy()
    expect(within(panel).getByRole('textbox', { name: 'Question' }).hasAttribute('disabled')).toBe(true)
  })

  it('comes back to the conversation the address names, or says it is gone', async () => {
    serve({ s1: session([turn()]) })
    window.history.replaceState(null, '', '/?chat=s1')
    const { unmount } = render(<App />)
    const panel = await screen.findByRole('complementary', { name: 'Chat' })
    await within(panel).findByText(/vai composes RAG pipelines/)
    expect(within(panel).getByTestId('chat-question').textContent).toBe('What is vai?')
    unmount()

    window.history.replaceState(null, '', '/?chat=gone')
    render(<App />)
    await screen.findByText(/That conversation is no longer kept/)
    expect(window.location.search).toBe('?chat=new')
  })

  it('lets agent mode change the knowledge base only once switched on, for that conversation', async () => {
    const server = serve({}, { ...config, supportsTools: true, mode: 'agent' })
    const panel = await openPanel(server)
    const agent = within(panel).getByRole('button', { name: 'Agent' })
    await waitFor(() => expect(agent.hasAttribute('disabled')).toBe(false))
    fireEvent.click(agent)
    const allow = within(panel).getByRole('switch', { name: 'Allow changes' }) as HTMLInputElement
    expect(allow.checked).toBe(false)
    askQuestion(panel, 'Remember this')
    expect(server.socket().sent).toContainEqual({ type: 'chat_ask', ask: { question: 'Remember this', mode: 'agent' } })
    server.chat({ type: 'turn_started', sessionId: 's1', turnId: 't1', mode: 'agent', provider: 'local', model: config.model })
    server.chat({ type: 'turn_finished', turn: turn({ mode: 'agent' }) })

    fireEvent.click(allow)
    askQuestion(panel, 'Now remember this')
    expect(server.socket().sent).toContainEqual({ type: 'chat_ask', ask: { sessionId: 's1', question: 'Now remember this', mode: 'agent', allowWrites: true } })
    server.chat({ type: 'turn_started', sessionId: 's1', turnId: 't2', mode: 'agent', provider: 'local', model: config.model })
    server.chat({ type: 'turn_finished', turn: turn({ id: 't2', mode: 'agent' }) })

    // A new conversation starts with it off again; pipeline mode does not offer it.
    fireEvent.click(within(panel).getByRole('button', { name: 'New conversation' }))
    expect((within(panel).getByRole('switch', { name: 'Allow changes' }) as HTMLInputElement).checked).toBe(false)
    fireEvent.click(within(panel).getByRole('button', { name: 'Search the knowledge base, then answer from what was found' }))
    expect(within(panel).queryByRole('switch', { name: 'Allow changes' })).toBeNull()
  })

  it('shows an agent answer’s tool calls and opens them as a workflow in the builder', async () => {
    const call = {
      id: 'c1',
      name: 'vai_query',
      arguments: { query: 'What is vai?', limit: 5 },
      label: 'Searching api_docs for "What is vai?"',
      ok: true,
      summary: '3 results, top score 0.91',
      output: { resultCount: 3 },
      durationMs: 1200,
    }
    serve({ s1: session([turn({ mode: 'agent', toolCalls: [call] })]) }, { ...config, supportsTools: true })
    window.history.replaceState(null, '', '/?chat=s1')
    const app = createApp()
    // The builder's start is watched, not run.
    const startEditing = vi.spyOn(app.editing, 'start').mockResolvedValue(undefined)
    render(<App app={app} />)
    const panel = await screen.findByRole('complementary', { name: 'Chat' })
    const calls = await within(panel).findByRole('list', { name: 'Tool calls' })
    expect(within(calls).getByText(call.label)).toBeTruthy()
    expect(within(calls).getByText('1.2 s')).toBeTruthy()
    expect(within(calls).getByText(call.summary)).toBeTruthy()
    fireEvent.click(within(calls).getByRole('button', { expanded: false }))
    expect(within(calls).getByText('Arguments · vai_query')).toBeTruthy()
    expect(within(calls).getByText(/limit/)).toBeTruthy()

    fireEvent.click(within(panel).getByRole('button', { name: 'Open as workflow' }))
    await waitFor(() => expect(startEditing).toHaveBeenCalledTimes(1))
    expect(startEditing).toHaveBeenCalledWith({ kind: 'new', doc: expect.objectContaining({ name: 'Chat: What is vai?' }) })
    await within(panel).findByText(/is open in the builder as a new, unsaved workflow/)
  })

  it('deletes a conversation after asking twice', async () => {
    const server = serve({ s1: session([turn()]) })
    const panel = await openPanel(server)
    fireEvent.click(within(panel).getByRole('button', { name: 'Conversations' }))
    fireEvent.click(await within(panel).findByRole('button', { name: 'Delete “What is vai?”' }))
    fireEvent.click(within(panel).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(server.calls).toContainEqual({ method: 'DELETE', path: '/api/chat/sessions/s1', body: undefined }))
  })
})
