import { act } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderHookWithApp } from '../../test/renderWithApp'
import { findStep } from '../doc/model'
import { createEditorStore } from '../store/createEditorStore'
import { editingApp } from '../test/editingApp'
import { fakeEditorApi } from '../test/fakeEditorApi'
import { searchDoc, tools } from '../test/fixtures'
import { useProblemsListProps, useStepFormProps, useWorkflowSettingsProps } from './useFormProps'

function session() {
  const api = fakeEditorApi()
  const store = createEditorStore(
    {
      doc: searchDoc(),
      source: { key: 'k', label: 'k', readOnly: true },
      diagnostics: [
        { severity: 'error', code: 'INVALID_INPUT', message: 'bad query', stepId: 'a', field: 'inputs.query' },
        { severity: 'warning', code: 'MISSING_WORKFLOW_NAME', message: 'no description', field: 'description' },
      ],
    },
    { api, tools: () => tools, storage: null },
  )
  return { api, store, app: editingApp(store) }
}

describe('form bindings', () => {
  it('give a step form its step, tool, ids, inputs and only its diagnostics', () => {
    const { app } = session()
    const { result } = renderHookWithApp(() => useStepFormProps('a'), app)
    expect(result.current).toMatchObject({ step: { id: 'a' }, tool: { name: 'query' }, stepIds: ['a', 'b', 'm', 't'], inputNames: ['query'] })
    expect(result.current?.diagnostics.map((d) => d.code)).toEqual(['INVALID_INPUT'])
  })

  it('commit step edits with their field, so keystrokes coalesce into one undo entry', () => {
    const { store, app } = session()
    const { result } = renderHookWithApp(() => useStepFormProps('a'), app)
    act(() => result.current!.onChange({ ...result.current!.step, name: 'F' }, 'name'))
    act(() => result.current!.onChange({ ...result.current!.step, name: 'Fi' }, 'name'))
    expect(findStep(store.getState().doc, 'a')?.name).toBe('Fi')
    expect(store.getState().history.past).toHaveLength(1)
  })

  it('keep the id list stable across an edit that does not change it', () => {
    const { app } = session()
    const { result } = renderHookWithApp(() => useStepFormProps('a'), app)
    const ids = result.current!.stepIds
    act(() => result.current!.onChange({ ...result.current!.step, name: 'x' }, 'name'))
    expect(result.current!.stepIds).toBe(ids)
  })

  it('rename through the store and complete against the document', async () => {
    const { api, app } = session()
    const { result } = renderHookWithApp(() => useStepFormProps('a'), app)
    const { complete, onRename } = result.current!
    await complete({ stepId: 'b', field: 'inputs.query', text: '{{ in', cursor: 5 })
    expect(api.complete).toHaveBeenCalledWith(
      expect.objectContaining({ stepId: 'b', field: 'inputs.query', definition: expect.objectContaining({ name: 'Two searches' }) }),
    )
    await act(async () => expect(await onRename('a', 'first')).toBeUndefined())
    expect(api.rewrite).toHaveBeenCalledWith(expect.objectContaining({ steps: { a: 'first' } }))
    // The form of the renamed step is found under its new id (the inspector follows the selection).
    expect(result.current).toBeUndefined()
  })

  it('give workflow settings the workflow-level diagnostics and input renames', async () => {
    const { api, app } = session()
    const { result } = renderHookWithApp(() => useWorkflowSettingsProps(), app)
    expect(result.current.diagnostics.map((d) => d.code)).toEqual(['MISSING_WORKFLOW_NAME'])
    await act(async () => void (await result.current.onRenameInput('query', 'q')))
    expect(api.rewrite).toHaveBeenCalledWith(expect.objectContaining({ inputs: { query: 'q' } }))
    expect(Object.keys(result.current.workflow.inputs ?? {})).toEqual(['q'])
  })

  it('select the step of a problem and ask its form to focus the field', () => {
    const { store, app } = session()
    const { result } = renderHookWithApp(() => ({ problems: useProblemsListProps(), form: useStepFormProps('a') }), app)
    act(() => result.current.problems.onSelect(result.current.problems.diagnostics[0]))
    expect(app.stores.workflow.getState().selected).toBe('a')
    expect(result.current.form?.focusField).toBe('inputs.query')
    act(() => result.current.problems.onSelect(result.current.problems.diagnostics[1]))
    expect(store.getState().focus).toMatchObject({ stepId: undefined, field: 'description' })
  })
})
