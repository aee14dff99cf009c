import { act, screen } from '@testing-library/react'
import { ReactFlowProvider } from '@xyflow/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { EdgeKind, GraphEdge } from '../../api/types'
import { renderWithApp } from '../../test/renderWithApp'
import { findStep } from '../doc/model'
import { bind } from '../session/bind'
import { createEditorStore } from '../store/createEditorStore'
import { edgeId } from '../doc/view'
import { editingApp } from '../test/editingApp'
import { fakeEditorApi, planOf } from '../test/fakeEditorApi'
import { searchDoc, tools } from '../test/fixtures'
import EditorFlow from './EditorFlow'

// Every step node reads its run state once per render: counting those reads counts renders.
const renders = vi.hoisted(() => new Map<string, number>())
vi.mock('../../canvas/useStepRun', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../canvas/useStepRun')>()
  return {
    ...real,
    useStepRun: (id: string) => {
      renders.set(id, (renders.get(id) ?? 0) + 1)
      return real.useStepRun(id)
    },
  }
})

/** searchDoc()'s edges, as the server plans them. */
const edges: GraphEdge[] = [
  ['a', 'b', 'depends_on', 'a', 'dependsOn'],
  ['a', 'm', 'reference', 'a.output.results', 'inputs.arrays[0]'],
  ['b', 'm', 'reference', 'b.output.results', 'inputs.arrays[1]'],
  ['a', 't', 'reference', 'a.output.resultCount', 'inputs.text'],
  ['m', '__output', 'output', 'm.output.results', 'output.results'],
].map(([source, target, kind, label, field]) => ({ id: edgeId(source, target, field), source, target, kind: kind as EdgeKind, label, field }))

function editor() {
  const doc = searchDoc()
  const store = createEditorStore(
    { doc, source: { key: 'k', label: 'k', readOnly: true }, graph: planOf(doc, edges).graph },
    { api: fakeEditorApi(), tools: () => tools, storage: null },
  )
  const app = editingApp(store)
  // As a session does: stale marks and the selection reach the canvas through the app's stores.
  unbind = bind(app, store)
  renderWithApp(
    <ReactFlowProvider>
      <div style={{ width: 1000, height: 700 }}>
        <EditorFlow onConnectRequest={() => {}} onPaletteRequest={() => {}} />
      </div>
    </ReactFlowProvider>,
    app,
  )
  return store
}

const wrapperOf = (id: string) => screen.getByTestId(`node-${id}`).closest<HTMLElement>('.react-flow__node')!

let unbind = () => {}
beforeEach(() => renders.clear())
afterEach(() => unbind())

describe('the editor canvas redraws only what an edit touched', () => {
  it('a value edit redraws its node alone, although it marks every step downstream stale', () => {
    const store = editor()
    renders.clear()
    const a = findStep(store.getState().doc, 'a')!
    act(() => store.getState().replaceStep('a', { ...a, inputs: { ...a.inputs, query: 'new text' } }, 'inputs.query'))
    expect(Object.keys(store.getState().stale).sort()).toEqual(['__output', 'a', 'b', 'm', 't'])
    expect([...renders.keys()]).toEqual(['a'])
  })

  it('a connection redraws its target alone', () => {
    const store = editor()
    renders.clear()
    act(() => void store.getState().connect({ source: 'b', target: 't', path: 'b.output.resultCount', into: { kind: 'input', name: 'text' } }))
    expect(findStep(store.getState().doc, 't')?.inputs.text).toMatch(/b\.output\.resultCount/)
    expect([...renders.keys()]).toEqual(['t'])
  })

  it('a rename updates the node in place: same element, new id shown, selection kept', async () => {
    const store = editor()
    act(() => store.getState().select(['a']))
    const node = wrapperOf('a')
    expect(node.dataset.id).toBe('a')
    renders.clear()
    await act(async () => void (await store.getState().renameStep('a', 'first')))
    expect(screen.queryByTestId('node-a')).toBeNull()
    expect(wrapperOf('first')).toBe(node)
    expect(node.classList.contains('selected')).toBe(true)
    // Redrawn: the renamed step and the steps whose text names it; b names it only in
    // dependsOn, which its card does not show.
    expect([...renders.keys()].sort()).toEqual(['first', 'm', 't'])
    act(() => store.getState().undo())
    expect(wrapperOf('a')).toBe(node)
  })
})
