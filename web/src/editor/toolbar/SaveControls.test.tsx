import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import { createEditorStore } from '../store/createEditorStore'
import { renderWithApp } from '../../test/renderWithApp'
import { editingApp } from '../test/editingApp'
import { fakeEditorApi } from '../test/fakeEditorApi'
import { searchDoc, tools } from '../test/fixtures'
import SaveControls from './SaveControls'

function session(readOnly = false, doc = searchDoc()) {
  const api = fakeEditorApi()
  const source = readOnly
    ? { key: 'builtin:x', id: 'builtin:x', label: 'X', readOnly }
    : { key: 'file:two.vai-workflow.json', id: 'file:two.vai-workflow.json', label: 'Two', readOnly, version: 'v1' }
  const store = createEditorStore({ doc, source }, { api, tools: () => tools, storage: null, debounceMs: 0 })
  return { api, store, app: editingApp(store) }
}

describe('Save controls', () => {
  it('explains a conflict and saves anyway on request', async () => {
    const { api, store, app } = session()
    store.getState().addStep('query')
    api.save.mockRejectedValueOnce(new ApiError('CONFLICT', 'two.vai-workflow.json changed on disk since it was opened', 409))
    renderWithApp(<SaveControls />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'two.vai-workflow.json changed on disk' })
    expect(within(dialog).getByText(/Saving now would overwrite those changes/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save anyway' }))
    await waitFor(() => expect(api.save).toHaveBeenLastCalledWith(expect.objectContaining({ overwrite: true })))
    await waitFor(() => expect(store.getState().dirty).toBe(false))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('reloads from disk from the conflict dialog, and undo brings the edits back', async () => {
    const { api, store, app } = session()
    store.getState().addStep('query')
    api.save.mockRejectedValueOnce(new ApiError('CONFLICT', 'changed on disk', 409))
    const disk = { ...searchDoc(), description: 'edited elsewhere' }
    api.getWorkflow.mockResolvedValue({
      summary: { id: 'file:two.vai-workflow.json', name: 'Two', source: 'file', stepCount: 4, inputs: [], readOnly: false },
      text: JSON.stringify(disk),
      definition: disk,
      version: 'v9',
    })
    renderWithApp(<SaveControls />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Reload from disk' }))
    await waitFor(() => expect(store.getState().doc.description).toBe('edited elsewhere'))
    expect(store.getState().dirty).toBe(false)
    expect(store.getState().source.version).toBe('v9')
    store.getState().undo()
    expect(store.getState().doc.steps).toHaveLength(5)
  })

  it('asks for a file name for a built-in, checks it, and offers to replace an existing file', async () => {
    const { api, app } = session(true)
    api.save.mockRejectedValueOnce(new ApiError('CONFLICT', 'a file named x.vai-workflow.json already exists', 409))
    renderWithApp(<SaveControls />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save as' })
    const name = within(dialog).getByRole('textbox', { name: 'File name' })
    fireEvent.change(name, { target: { value: '../up' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByText(/not a path/)).toBeTruthy()
    expect(api.save).not.toHaveBeenCalled()
    fireEvent.change(name, { target: { value: 'x' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Replace' }))
    await waitFor(() => expect(api.save).toHaveBeenLastCalledWith(expect.objectContaining({ fileName: 'x', overwrite: true })))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('offers to name an untitled workflow when saving it, and the file name follows the name', async () => {
    const { api, store, app } = session(true, { ...searchDoc(), name: 'Untitled workflow' })
    renderWithApp(<SaveControls />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save as' })
    const name = within(dialog).getByRole('textbox', { name: 'Workflow name' })
    const file = within(dialog).getByRole('textbox', { name: 'File name' })
    fireEvent.change(name, { target: { value: 'Walk search' } })
    expect((file as HTMLInputElement).value).toBe('walk-search')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(api.save).toHaveBeenCalledWith(expect.objectContaining({ fileName: 'walk-search', definition: expect.objectContaining({ name: 'Walk search' }) })),
    )
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(store.getState().doc.name).toBe('Walk search')
    expect(store.getState().dirty).toBe(false)
  })

  it('names an untitled workflow after its file when no name is given', async () => {
    const { api, app } = session(true, { ...searchDoc(), name: 'Untitled workflow' })
    renderWithApp(<SaveControls />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save as' })
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'File name' }), { target: { value: 'walk-search' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(api.save).toHaveBeenCalledWith(expect.objectContaining({ fileName: 'walk-search', definition: expect.objectContaining({ name: 'walk-search' }) })),
    )
  })

  it('does not ask for a name when the workflow has one', async () => {
    const { app } = session(true)
    renderWithApp(<SaveControls />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const dialog = await screen.findByRole('dialog', { name: 'Save as' })
    expect(within(dialog).queryByRole('textbox', { name: 'Workflow name' })).toBeNull()
  })
})
