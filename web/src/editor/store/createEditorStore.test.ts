import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PlanResponse, ReferenceSite, Workflow } from '../../api/types'
import { ApiError } from '../../api/client'
import { loadDraft } from '../drafts'
import { findStep, noteNodeId } from '../doc/model'
import { fakeEditorApi, held, MemoryStorage, planOf } from '../test/fakeEditorApi'
import { searchDoc, searchSites, tools } from '../test/fixtures'
import { createEditorStore, DEFAULT_DEBOUNCE_MS } from './createEditorStore'

const source = { key: 'file:two.vai-workflow.json', id: 'file:two.vai-workflow.json', label: 'Two searches', readOnly: false, version: 'v1' }

function setup(doc: Workflow = searchDoc(), extra: { storage?: Storage | null; savedJson?: string } = {}) {
  const api = fakeEditorApi()
  const store = createEditorStore(
    { doc, source, savedJson: extra.savedJson },
    { api, tools: () => tools, storage: extra.storage === undefined ? null : extra.storage },
  )
  return { api, store, s: () => store.getState() }
}

/** Lets the initial analysis (and any scheduled one) finish. */
async function settle() {
  await vi.advanceTimersByTimeAsync(DEFAULT_DEBOUNCE_MS + 10)
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('editor store: analysis', () => {
  it('analyses in draft mode once, debounced after a burst of edits', async () => {
    const { api, s } = setup()
    await settle()
    expect(api.plan).toHaveBeenCalledTimes(1)
    s().replaceWorkflow({ ...s().doc, name: 'A' }, 'name')
    s().replaceWorkflow({ ...s().doc, name: 'AB' }, 'name')
    await vi.advanceTimersByTimeAsync(DEFAULT_DEBOUNCE_MS / 2)
    expect(api.plan).toHaveBeenCalledTimes(1)
    s().replaceWorkflow({ ...s().doc, name: 'ABC' }, 'name')
    await settle()
    expect(api.plan).toHaveBeenCalledTimes(2)
    expect(api.plan.mock.calls[1][0].name).toBe('ABC')
    expect(api.references).toHaveBeenCalledTimes(2)
    expect(s().analysing).toBe(false)
  })

  it('drops an answer for a document that has changed since', async () => {
    const { api, s } = setup()
    await settle()
    const slow = held<PlanResponse>()
    api.plan.mockImplementationOnce(() => slow)
    s().replaceWorkflow({ ...s().doc, name: 'old' })
    await settle()
    s().replaceWorkflow({ ...s().doc, name: 'new' })
    await settle()
    const diagnostics = s().analysis.diagnostics
    slow.resolve({ valid: false, diagnostics: [{ severity: 'error', code: 'INVALID_DEFINITION', message: 'for the old document' }] })
    await settle()
    expect(s().analysis.diagnostics).toBe(diagnostics)
    expect(s().analysedDoc?.name).toBe('new')
  })

  it('redraws an undone document from its cached answer without asking again', async () => {
    const { api, s } = setup()
    const edges = [{ id: 'a->t:inputs.x', source: 'a', target: 't', kind: 'reference' as const, label: 'a.output', field: 'inputs.x' }]
    api.plan.mockImplementation(async (doc) => planOf(doc, doc.name === 'edited' ? [] : edges))
    await settle()
    expect(s().edges).toEqual(edges)
    s().replaceWorkflow({ ...s().doc, name: 'edited' })
    await settle()
    expect(s().edges).toEqual([])
    const calls = api.plan.mock.calls.length
    s().undo()
    expect(s().edges).toEqual(edges)
    await settle()
    expect(api.plan.mock.calls.length).toBe(calls)
  })

  it('reports an unreachable server without touching the document', async () => {
    const { api, s } = setup()
    api.plan.mockRejectedValue(new ApiError('UNREACHABLE', 'Cannot reach the vai playground server.'))
    await settle()
    expect(s().analysisError).toMatch(/Cannot reach/)
    expect(s().doc.name).toBe('Two searches')
  })
})

describe('editor store: history and dirty flag', () => {
  it('is dirty after an edit and clean again after undo', async () => {
    const { s } = setup()
    expect(s().dirty).toBe(false)
    s().addStep('query')
    expect(s().dirty).toBe(true)
    s().undo()
    expect(s().dirty).toBe(false)
    s().redo()
    expect(s().dirty).toBe(true)
  })

  it('coalesces keystrokes in one field into one undo entry', () => {
    const { s } = setup()
    const a = findStep(s().doc, 'a')!
    for (const q of ['h', 'he', 'hey']) s().replaceStep('a', { ...a, inputs: { ...a.inputs, query: q } }, 'inputs.query')
    expect(s().history.past).toHaveLength(1)
    s().undo()
    expect(findStep(s().doc, 'a')?.inputs.query).toBe('{{ inputs.query }}')
  })

  it('a selection change ends coalescing', () => {
    const { s } = setup()
    const a = findStep(s().doc, 'a')!
    s().replaceStep('a', { ...a, name: 'x' }, 'name')
    s().select(['b'])
    s().replaceStep('a', { ...a, name: 'xy' }, 'name')
    expect(s().history.past).toHaveLength(2)
  })

  it('counts a document as unsaved against the saved text, not the opened one', async () => {
    const saved = JSON.stringify({ ...searchDoc(), name: 'on disk' })
    const { s } = setup(searchDoc(), { savedJson: saved })
    expect(s().dirty).toBe(true)
  })
})

describe('editor store: canvas view', () => {
  it('shows a new step at once, placed beside the selected node, and selects it', () => {
    const { s } = setup()
    s().select(['a'])
    const id = s().addStep('merge')
    expect(id).toBe('merge_1')
    expect(s().nodes.map((n) => n.id)).toContain('merge_1')
    expect(s().positions.merge_1.x).toBeGreaterThan(s().positions.a.x)
    expect(s().selection).toEqual(['merge_1'])
    expect(findStep(s().doc, 'merge_1')?.inputs).toEqual({ arrays: [] })
    expect(s().doc.ui).toBeUndefined()
  })

  it('keeps node objects of untouched steps across an edit', () => {
    const { s } = setup()
    const before = s().nodes
    const b = findStep(s().doc, 'b')!
    s().replaceStep('b', { ...b, name: 'B' }, 'name')
    const changed = s()
      .nodes.filter((n, i) => n !== before[i])
      .map((n) => n.id)
    expect(changed).toEqual(['b'])
  })

  it('draws a connection before the server answers, and refuses a cycle with its path', async () => {
    const { s } = setup()
    await settle()
    s().commit(s().doc) // no-op commit changes nothing
    expect(s().connect({ source: 'a', path: 'a.output.results', target: 't', into: { kind: 'input', name: 'extra' } })).toBe(true)
    expect(s().edges.map((e) => e.id)).toContain('a->t:inputs.extra')
    expect(s().connect({ source: 't', path: 't.output.text', target: 'a', into: { kind: 'input', name: 'query' } })).toBe(false)
    expect(s().notice).toEqual({ tone: 'error', text: 'That connection would create a cycle: t → a → t' })
  })

  it('marks the edited step and everything downstream stale', async () => {
    const { api, s } = setup()
    api.plan.mockImplementation(async (doc) =>
      planOf(doc, [
        { id: '1', source: 'a', target: 'b', kind: 'depends_on', label: 'a', field: 'dependsOn' },
        { id: '2', source: 'b', target: 'm', kind: 'reference', label: '', field: 'inputs.arrays[1]' },
      ]),
    )
    await settle()
    const b = findStep(s().doc, 'b')!
    s().replaceStep('b', { ...b, name: 'B' })
    expect(Object.keys(s().stale).sort()).toEqual(['b', 'm'])
  })

  it('writes positions only once something is moved, then for every node', () => {
    const { s } = setup()
    s().addStep('query')
    expect(s().doc.ui).toBeUndefined()
    s().moveNodes({ a: { x: 5, y: 6 } })
    const positions = s().doc.ui?.positions ?? {}
    expect(positions.a).toEqual({ x: 5, y: 6 })
    expect(Object.keys(positions).sort()).toEqual(['__inputs', '__output', 'a', 'b', 'm', 'query_1', 't'])
    s().undo()
    expect(s().doc.ui).toBeUndefined()
  })

  it('moves notes by their own coordinates', () => {
    const { s } = setup()
    const id = s().addNote({ x: 10, y: 20 })
    expect(s().selection).toEqual([noteNodeId(id)])
    s().moveNodes({ [noteNodeId(id)]: { x: 100.4, y: 0 } })
    expect(s().notes[0]).toMatchObject({ x: 100, y: 0 })
    expect(s().doc.ui?.positions).toBeUndefined()
  })
})

describe('editor store: operations that ask the server', () => {
  it('disconnects an edge by removing exactly its reference', async () => {
    const { api, s } = setup()
    api.references.mockResolvedValue(searchSites())
    api.plan.mockImplementation(async (doc) =>
      planOf(doc, [{ id: 'e', source: 'a', target: 'm', kind: 'reference', label: 'a.output.results', field: 'inputs.arrays[0]' }]),
    )
    await settle()
    await s().disconnectEdges(['e'])
    expect(findStep(s().doc, 'm')?.inputs.arrays).toEqual(['{{ b.output.results }}'])
    expect(s().history.past).toHaveLength(1)
  })

  it('deletes steps with the references to them, as one undo entry', async () => {
    const { api, s } = setup()
    api.references.mockImplementation(async (doc: Workflow) => (doc.steps.length === 4 ? searchSites() : []))
    await settle()
    await s().deleteNodes(['a', '__inputs'])
    expect(s().doc.steps.map((x) => x.id)).toEqual(['b', 'm', 't'])
    expect(s().doc.output).toEqual({ results: '{{ m.output.results }}' })
    expect(s().notice?.text).toMatch(/1 reference inside larger expressions/)
    s().undo()
    expect(s().doc).toEqual(searchDoc())
  })

  it('asks for the references of the current document when the index is stale', async () => {
    const { api, s } = setup()
    await settle()
    const sites: ReferenceSite[] = []
    api.references.mockResolvedValue(sites)
    s().replaceWorkflow({ ...s().doc, name: 'changed' })
    const calls = api.references.mock.calls.length
    await s().deleteNodes(['t'])
    expect(api.references.mock.calls.length).toBe(calls + 1)
    expect(api.references.mock.calls.at(-1)?.[0].name).toBe('changed')
  })

  it('renames a step through the rewrite route; edges, positions and selection follow', async () => {
    const { api, s } = setup()
    await settle()
    s().select(['a'])
    const autoA = s().positions.a
    expect(await s().renameStep('a', 'first')).toBeUndefined()
    expect(api.rewrite).toHaveBeenCalledWith(expect.objectContaining({ steps: { a: 'first' } }))
    expect(findStep(s().doc, 'first')).toBeTruthy()
    expect(findStep(s().doc, 'm')?.inputs.arrays).toEqual(['{{ first.output.results }}', '{{ b.output.results }}'])
    expect(s().selection).toEqual(['first'])
    expect(s().positions.first).toEqual(autoA)
    expect(findStep(s().doc, 'b')?.dependsOn).toEqual(['first'])
    // The canvas keeps drawing it as the same node; the key stays out of the document.
    expect(s().nodeKeys.first).toBe('a')
    expect(JSON.stringify(s().doc)).not.toMatch(/"a"/)
    s().undo()
    expect(findStep(s().doc, 'a')).toBeTruthy()
    expect(s().nodeKeys).toEqual({ a: 'a', b: 'b', m: 'm', t: 't' })
  })

  it('returns the server message for a refused rename and changes nothing', async () => {
    const { api, s } = setup()
    api.rewrite.mockRejectedValueOnce(new ApiError('RESERVED_ID', '"inputs" is a reserved word', 400))
    const before = s().doc
    expect(await s().renameStep('a', 'inputs')).toBe('"inputs" is a reserved word')
    expect(s().doc).toBe(before)
  })

  it('pastes steps with unique ids, rewired inside the group, as one entry', async () => {
    const { api, s } = setup()
    const text = s().copySelection() ?? ''
    expect(text).toBe('')
    s().select(['a', 'b'])
    await s().paste(s().copySelection()!)
    expect(api.rewrite).toHaveBeenCalledWith(expect.objectContaining({ steps: { a: 'a_1', b: 'b_1' } }))
    expect(s().doc.steps.map((x) => x.id)).toEqual(['a', 'b', 'm', 't', 'a_1', 'b_1'])
    expect(findStep(s().doc, 'b_1')?.dependsOn).toEqual(['a_1'])
    expect(s().selection).toEqual(['a_1', 'b_1'])
    expect(s().history.past).toHaveLength(1)
  })

  it('says so when the pasted text is not steps', async () => {
    const { s } = setup()
    await s().paste('{"hello": 1}')
    expect(s().notice?.tone).toBe('error')
    expect(s().history.past).toHaveLength(0)
  })
})

describe('editor store: save and drafts', () => {
  it('saves a file workflow over itself with its version, and is clean after', async () => {
    const { api, s } = setup()
    s().addStep('query')
    const outcome = await s().save()
    expect(outcome.status).toBe('saved')
    expect(api.save).toHaveBeenCalledWith(expect.objectContaining({ fileName: 'two.vai-workflow.json', baseVersion: 'v1' }))
    expect(s().dirty).toBe(false)
    expect(s().source.version).toBe('v2')
  })

  it('asks for a name for a read-only workflow', async () => {
    const api = fakeEditorApi()
    const store = createEditorStore(
      { doc: searchDoc(), source: { key: 'builtin:x', id: 'builtin:x', label: 'x', readOnly: true } },
      { api, tools: () => tools, storage: null },
    )
    expect(await store.getState().save()).toEqual({ status: 'needs-name' })
    expect(api.save).not.toHaveBeenCalled()
  })

  it('reports a conflict when the file changed on disk, keeping the edits', async () => {
    const { api, s } = setup()
    s().addStep('query')
    api.save.mockRejectedValueOnce(new ApiError('CONFLICT', 'two.vai-workflow.json changed on disk since it was opened', 409))
    expect(await s().save()).toEqual({ status: 'conflict', message: 'two.vai-workflow.json changed on disk since it was opened' })
    expect(s().dirty).toBe(true)
    await s().saveAnyway()
    expect(api.save).toHaveBeenLastCalledWith(expect.objectContaining({ overwrite: true }))
    expect(s().dirty).toBe(false)
  })

  it('keeps everything when the server is gone', async () => {
    const { api, s } = setup()
    s().addStep('query')
    const doc = s().doc
    api.save.mockRejectedValueOnce(new ApiError('UNREACHABLE', 'Cannot reach the vai playground server.'))
    expect((await s().save()).status).toBe('error')
    expect(s().doc).toBe(doc)
    expect(s().dirty).toBe(true)
    expect(s().notice?.text).toMatch(/Not saved: Cannot reach.*still here/)
  })

  it('keeps a draft of unsaved edits and drops it once clean', async () => {
    const storage = new MemoryStorage()
    const { s } = setup(searchDoc(), { storage })
    s().addStep('query')
    await vi.advanceTimersByTimeAsync(500)
    const draft = loadDraft(source.key, storage)
    expect(draft?.doc.steps).toHaveLength(5)
    expect(draft).toMatchObject({ key: source.key, id: source.id, version: 'v1', savedJson: JSON.stringify(searchDoc()) })
    s().undo()
    await vi.advanceTimersByTimeAsync(500)
    expect(loadDraft(source.key, storage)).toBeUndefined()
  })

  it('reopens a draft as unsaved', () => {
    const storage = new MemoryStorage()
    const first = setup(searchDoc(), { storage })
    first.s().addStep('query')
    vi.advanceTimersByTime(500)
    const draft = loadDraft(source.key, storage)!
    const again = createEditorStore({ doc: draft.doc, source, savedJson: draft.savedJson }, { api: fakeEditorApi(), tools: () => tools, storage })
    expect(again.getState().dirty).toBe(true)
    expect(again.getState().nodes.map((n) => n.id)).toContain('query_1')
  })
})
