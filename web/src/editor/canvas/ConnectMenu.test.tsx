import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithApp } from '../../test/renderWithApp'
import { findStep } from '../doc/model'
import { createEditorStore } from '../store/createEditorStore'
import { editingApp } from '../test/editingApp'
import { fakeEditorApi, planOf } from '../test/fakeEditorApi'
import { searchDoc, tools } from '../test/fixtures'
import ConnectMenu from './ConnectMenu'

function searchEditor() {
  const store = createEditorStore(
    { doc: searchDoc(), source: { key: 'k', label: 'k', readOnly: true } },
    { api: fakeEditorApi(), tools: () => tools, storage: null },
  )
  return store
}

describe('ConnectMenu', () => {
  it('connects by keyboard: choose the target, what to read and the input', () => {
    const store = searchEditor()
    let closed = false
    renderWithApp(<ConnectMenu request={{ source: 'b', at: { left: 0, top: 0 } }} onClose={() => (closed = true)} />, editingApp(store))
    const dialog = screen.getByRole('dialog', { name: 'Connect b' })
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'To' }))
    fireEvent.click(screen.getByRole('option', { name: 't' }))
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Read' }))
    fireEvent.click(screen.getByRole('option', { name: 'b.output.resultCount' }))
    fireEvent.click(within(dialog).getByRole('button', { name: /^text \*/ }))
    expect(findStep(store.getState().doc, 't')?.inputs.text).toBe('Found {{ a.output.resultCount }} for {{ inputs.query }} {{ b.output.resultCount }}')
    expect(closed).toBe(true)
  })

  it('adds a new output field named after what it reads', () => {
    const store = searchEditor()
    renderWithApp(<ConnectMenu request={{ source: 't', target: '__output', at: { left: 0, top: 0 } }} onClose={() => {}} />, editingApp(store))
    const dialog = screen.getByRole('dialog', { name: 'Connect t to output' })
    expect((within(dialog).getByRole('textbox', { name: 'New output field' }) as HTMLInputElement).value).toBe('text')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    expect(store.getState().doc.output).toMatchObject({ text: '{{ t.output.text }}' })
  })

  it('shows why a connection is refused and stays open', async () => {
    const api = fakeEditorApi()
    api.plan.mockImplementation(async (doc) =>
      planOf(doc, [{ id: 'a->m:inputs.arrays[0]', source: 'a', target: 'm', kind: 'reference', label: 'a.output.results', field: 'inputs.arrays[0]' }]),
    )
    const store = createEditorStore({ doc: searchDoc(), source: { key: 'k', label: 'k', readOnly: true } }, { api, tools: () => tools, storage: null })
    await act(() => store.getState().analysisNow())
    let closed = false
    renderWithApp(<ConnectMenu request={{ source: 'm', target: 'a', at: { left: 0, top: 0 } }} onClose={() => (closed = true)} />, editingApp(store))
    const dialog = screen.getByRole('dialog', { name: 'Connect m to a' })
    fireEvent.click(within(dialog).getByRole('button', { name: /^query \*/ }))
    expect(within(dialog).getByRole('alert').textContent).toBe('That connection would create a cycle: m → a → m')
    expect(closed).toBe(false)
    expect(findStep(store.getState().doc, 'a')?.inputs.query).toBe('{{ inputs.query }}')
  })

  it('does not offer a target that would close a cycle, and says why', async () => {
    const api = fakeEditorApi()
    api.plan.mockImplementation(async (doc) =>
      planOf(doc, [{ id: 'a->m:inputs.arrays[0]', source: 'a', target: 'm', kind: 'reference', label: 'a.output.results', field: 'inputs.arrays[0]' }]),
    )
    const store = createEditorStore({ doc: searchDoc(), source: { key: 'k', label: 'k', readOnly: true } }, { api, tools: () => tools, storage: null })
    await act(() => store.getState().analysisNow())
    renderWithApp(<ConnectMenu request={{ source: 'm', at: { left: 0, top: 0 } }} onClose={() => {}} />, editingApp(store))
    fireEvent.mouseDown(within(screen.getByRole('dialog', { name: 'Connect m' })).getByRole('combobox', { name: 'To' }))
    const refused = screen.getByRole('option', { name: /^a\b/ })
    expect(refused.getAttribute('aria-disabled')).toBe('true')
    expect(refused.textContent).toContain('That connection would create a cycle: m → a → m')
    expect(screen.getByRole('option', { name: 't' }).getAttribute('aria-disabled')).toBeNull()
  })
})
