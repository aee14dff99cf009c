import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import App from '../App'
import { createApp, type App as AppInstance } from '../app/createApp'
import { loadDraft } from './drafts'
import { installEditorServer } from './test/fakeEditorServer'

async function openAndEdit(app: AppInstance) {
  render(<App app={app} />)
  const library = screen.getByRole('navigation', { name: 'Library' })
  fireEvent.click(await within(library).findByRole('button', { name: /^Two Steps/ }))
  await screen.findByTestId('node-search')
  fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
  await screen.findByRole('toolbar', { name: 'Editing' })
  await screen.findByRole('button', { name: 'Add Merge step' })
}

function addByKeyboard(query: string) {
  const search = screen.getByRole('searchbox', { name: 'Search steps' })
  fireEvent.change(search, { target: { value: query } })
  fireEvent.keyDown(search, { key: 'Enter' })
}

// The editor is a lazy chunk: load it once up front so each test measures behaviour, not imports.
beforeAll(async () => {
  await Promise.all([import('./EditorCanvas'), import('./inspector/EditorInspector'), import('./session/start')])
}, 60_000)

describe('edit mode', { timeout: 20_000 }, () => {
  let server: ReturnType<typeof installEditorServer>
  let app: AppInstance
  beforeEach(() => {
    localStorage.clear()
    window.history.replaceState(null, '', '/')
    server = installEditorServer()
    app = createApp()
  })

  it('adds a step from the palette by keyboard, marks the workflow unsaved, and undoes it', async () => {
    await openAndEdit(app)
    addByKeyboard('merge')
    await screen.findByTestId('node-merge_1')
    expect(screen.getByTestId('workflow-title').textContent).toMatch(/●/)
    expect(document.title).toMatch(/^● Two Steps/)
    expect(within(screen.getByRole('navigation', { name: 'Library' })).getByRole('button', { name: /^Two Steps ●/ })).toBeTruthy()
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true })
    await waitFor(() => expect(screen.queryByTestId('node-merge_1')).toBeNull())
    expect(app.stores.editSession.getState().dirty).toBe(false)
  })

  it('renames the selected step in place: references follow and its form is not rebuilt', async () => {
    await openAndEdit(app)
    fireEvent.click(screen.getByTestId('node-search'))
    const id = await screen.findByRole('textbox', { name: 'Id' })
    const name = screen.getByRole('textbox', { name: 'Name' })
    fireEvent.change(id, { target: { value: 'lookup' } })
    fireEvent.keyDown(id, { key: 'Enter' })
    await screen.findByTestId('node-lookup')
    expect(screen.queryByTestId('node-search')).toBeNull()
    expect(JSON.stringify(app.stores.editSession.getState().handle?.store.getState().doc)).not.toMatch(/search\.output/)
    expect(screen.getByRole('textbox', { name: 'Id' })).toBe(id)
    expect(screen.getByRole('textbox', { name: 'Name' })).toBe(name)
    // Another step gets a form of its own.
    fireEvent.click(screen.getByTestId('node-merge'))
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Id' }) as HTMLInputElement).value).toBe('merge'))
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toBe(name)
  })

  it('asks before leaving unsaved changes, and keeps editing on request', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    const library = screen.getByRole('navigation', { name: 'Library' })
    fireEvent.click(within(library).getByRole('button', { name: /^Other Example/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Save changes before leaving?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep editing' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.getByTestId('node-query_1')).toBeTruthy()
    fireEvent.click(within(library).getByRole('button', { name: /^Other Example/ }))
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard changes' }))
    await waitFor(() => expect(app.stores.editSession.getState().active).toBe(false))
    await waitFor(() => expect(app.stores.workflow.getState().current?.key).toBe('example:other'))
    expect(loadDraft('builtin:two-steps')).toBeUndefined()
  })

  it('saves from the leave dialog (asking for a file name when there is none), then leaves', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    const library = screen.getByRole('navigation', { name: 'Library' })
    fireEvent.click(within(library).getByRole('button', { name: /^Other Example/ }))
    const leave = await screen.findByRole('dialog', { name: 'Save changes before leaving?' })
    fireEvent.click(within(leave).getByRole('button', { name: 'Save' }))
    // A built-in is saved as a file of its own.
    const saveAs = await screen.findByRole('dialog', { name: 'Save as' })
    fireEvent.click(within(saveAs).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(app.stores.workflow.getState().current?.key).toBe('example:other'))
    expect(app.stores.editSession.getState().active).toBe(false)
    const saved = server.calls.find((c) => c.path === '/api/workflows/save')
    expect(saved?.body).toMatchObject({ fileName: 'two-steps', definition: { steps: [{ id: 'search' }, { id: 'merge' }, { id: 'query_1' }] } })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('going back with unsaved changes saved as a new file still goes back', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    act(() => {
      window.history.pushState(null, '', '/?workflow=example%3Aother')
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Save changes before leaving?' })).getByRole('button', { name: 'Save' }))
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Save as' })).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(app.stores.workflow.getState().current?.key).toBe('example:other'))
    expect(window.location.search).toBe('?workflow=example%3Aother')
  })

  it('keeps a draft that the next visit restores, with an offer to discard it', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    act(() => window.dispatchEvent(new Event('pagehide')))
    expect(loadDraft('builtin:two-steps')?.doc.steps).toHaveLength(3)
    // The page goes away with the draft kept; the next visit opens the same workflow.
    act(() => app.stores.editSession.getState().handle?.end(false))
    app.stores.workflow.getState().close()
    const library = screen.getByRole('navigation', { name: 'Library' })
    fireEvent.click(within(library).getByRole('button', { name: /^Two Steps/ }))
    await screen.findByTestId('draft-restored')
    expect(screen.getByTestId('node-query_1')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }))
    await waitFor(() => expect(screen.queryByTestId('node-query_1')).toBeNull())
    expect(app.stores.editSession.getState().dirty).toBe(false)
  })

  it('refuses an import that is not JSON, saying where, and keeps the document', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    fireEvent.click(screen.getByRole('button', { name: 'Paste JSON' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Workflow JSON' }), { target: { value: '{ "a": 1, }' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Open' }))
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/not valid JSON at line 4:18/)
    expect(screen.getByRole('dialog')).toBe(dialog)
    expect(screen.getByTestId('node-query_1')).toBeTruthy()
    expect(app.stores.editSession.getState().active).toBe(true)
  })

  it('puts "Run this step" at the top of a step\'s form, ready before any run for a step that reads only inputs', async () => {
    await openAndEdit(app)
    fireEvent.click(screen.getByTestId('node-search'))
    const id = await screen.findByRole('textbox', { name: 'Id' })
    const run = screen.getByRole('button', { name: 'Run this step' })
    expect(run.compareDocumentPosition(id) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    await waitFor(() => expect(run.hasAttribute('disabled')).toBe(false))
  })

  it('runs the workflow as it stands, without saving', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    const runBar = screen.getByRole('region', { name: 'Run' })
    fireEvent.change(within(runBar).getByRole('textbox', { name: /^query/ }), { target: { value: 'hi' } })
    await waitFor(() => expect(within(runBar).getByRole('button', { name: 'Run' }).hasAttribute('disabled')).toBe(false))
    fireEvent.click(within(runBar).getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(server.baseCalls.some((c) => c.path === '/api/runs' && c.method === 'POST')).toBe(true))
    const start = server.baseCalls.find((c) => c.path === '/api/runs' && c.method === 'POST')
    expect((start?.body as { definition: { steps: { id: string }[] } }).definition.steps.map((s) => s.id)).toEqual(['search', 'merge', 'query_1'])
    expect(server.calls.some((c) => c.path === '/api/workflows/save')).toBe(false)
  })

  it('starts a new workflow from a starter, unsaved and editable', async () => {
    render(<App app={app} />)
    fireEvent.click(await screen.findByRole('button', { name: 'New workflow' }))
    const menu = await screen.findByRole('menu', { name: 'New workflow' })
    fireEvent.click(await within(menu).findByRole('menuitem', { name: /^Search and answer \(RAG\)/ }))
    await screen.findByRole('toolbar', { name: 'Editing' })
    await screen.findByTestId('node-answer')
    expect(screen.getByTestId('node-search')).toBeTruthy()
    expect(screen.getByTestId('workflow-title').textContent).toMatch(/Search and answer \(RAG\).*●/)
    expect(app.stores.editSession.getState().dirty).toBe(true)
    // Laid out along its edges from the start: the answer step sits to the right of the search.
    const { positions } = app.stores.editSession.getState().handle!.store.getState()
    expect(positions.answer.x).toBeGreaterThan(positions.search.x)
  })

  it('saving a new workflow offers to name it; the title, the library and Recent then show the name with the file name', async () => {
    render(<App app={app} />)
    fireEvent.click(await screen.findByRole('button', { name: 'New workflow' }))
    fireEvent.click(await within(await screen.findByRole('menu', { name: 'New workflow' })).findByRole('menuitem', { name: /^Empty workflow/ }))
    await screen.findByRole('toolbar', { name: 'Editing' })
    await screen.findByRole('button', { name: 'Add Merge step' })
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save as' })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Workflow name' }), { target: { value: 'Walk search' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())

    expect(screen.getByTestId('workflow-title').textContent).toBe('Walk search')
    expect(screen.getByTestId('workflow-file').textContent).toBe('walk-search.vai-workflow.json')
    expect(document.title).toMatch(/^Walk search/)
    const library = screen.getByRole('navigation', { name: 'Library' })
    const listed = await within(library).findByRole('button', { name: /^Walk search walk-search\.vai-workflow\.json/ })
    expect(listed.textContent).toMatch(/1 step/)
    const recent = within(library).getAllByRole('button', { name: /^Recent: / })
    expect(recent.map((r) => [r.getAttribute('aria-label'), r.textContent])).toEqual([['Recent: Walk search', 'Walk searchwalk-search.vai-workflow.json']])
  })

  it('a pasted workflow saved as a file is listed once in Recent, as the file', async () => {
    render(<App app={app} />)
    fireEvent.click(screen.getByRole('button', { name: 'Paste JSON' }))
    const paste = await screen.findByRole('dialog')
    const text = JSON.stringify({ name: 'Pasted flow', steps: [{ id: 'only', tool: 'template', inputs: { text: 'hi' } }] })
    fireEvent.change(within(paste).getByRole('textbox', { name: 'Workflow JSON' }), { target: { value: text } })
    fireEvent.click(within(paste).getByRole('button', { name: 'Open' }))
    await screen.findByRole('button', { name: 'Recent: Two Steps' })
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    await screen.findByRole('toolbar', { name: 'Editing' })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save as' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await screen.findByTestId('workflow-file')
    const library = screen.getByRole('navigation', { name: 'Library' })
    const recent = within(library).getAllByRole('button', { name: /^Recent: / })
    expect(recent.map((r) => r.textContent)).toEqual(['Pasted flowpasted-flow.vai-workflow.json'])
  })

  it('Done leaves edit mode for the workflow as stored; with unsaved changes it asks first', async () => {
    await openAndEdit(app)
    addByKeyboard('query')
    await screen.findByTestId('node-query_1')
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Save changes before leaving?' })).getByRole('button', { name: 'Discard changes' }))
    await waitFor(() => expect(screen.queryByRole('toolbar', { name: 'Editing' })).toBeNull())
    await screen.findByRole('button', { name: 'Edit' })
    await screen.findByTestId('node-merge')
    expect(screen.queryByTestId('node-query_1')).toBeNull()
    expect(app.stores.workflow.getState().current?.definition).toMatchObject({ steps: [{ id: 'search' }, { id: 'merge' }] })
  })
})
