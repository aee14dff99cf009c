//! The editor store, built per editing session by `createEditorStore` (separate from the run
//! store). Every edit goes through `commit`: it records history, rebuilds only the changed
//! canvas nodes, adjusts edges at once (optimistic), marks stale outputs, keeps a draft, and
//! schedules a draft-mode analysis. Answers for an older document are dropped by generation, as
//! state/openWorkflow.ts does, and kept per document so undo redraws without asking again.
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CompleteResponse, GraphEdge, Workflow } from '../../api/types'
import { errorInfo } from '../../api/client'
import { saveDraft, removeDraft } from '../drafts'
import { emptyHistory, record, redo, seal, undo } from '../doc/history'
import { notesOf, positionsOf } from '../doc/layout'
import { noteNodeId } from '../doc/model'
import { followKeys, initialKeys } from '../doc/nodeKeys'
import { placeMissing } from '../doc/placement'
import { renameKeys } from '../doc/rewrite'
import { changedSteps, downstream } from '../doc/stale'
import { adjustEdges, NodeBuilder } from '../doc/view'
import { autoLayout, liveRoutes, positionsOfLayout, renameLayout } from './autoLayout'
import { editActions, type EditActions } from './editActions'
import { fileActions, type FileActions } from './fileActions'
import type { Analysis, CommitOptions, ConnectRequest, EditorData, EditorDeps, EditorInit, Notice } from './state'

export interface CoreActions {
  /** Replaces the document with `next` as one undoable edit. */
  commit(next: Workflow, options?: CommitOptions): void
  undo(): void
  redo(): void
  /** Ends keystroke coalescing (a field lost focus). */
  seal(): void
  select(ids: string[]): void
  selectEdges(ids: string[]): void
  setNotice(notice?: Notice): void
  focusField(stepId: string | undefined, field: string | undefined): void
  /** Completion inside a template or expression, against the document as it stands. */
  complete(req: { stepId?: string; field: string; text: string; cursor: number }): Promise<CompleteResponse>
  /** Opens (or, with nothing, closes) the connect menu. */
  requestConnect(request?: ConnectRequest): void
  /** The analysis of the current document: the cached one, or asked for now. */
  analysisNow(): Promise<Analysis>
  /** Outputs of the new run are current again. */
  clearStale(): void
  /** Writes the draft now (the page is going away). */
  flushDraft(): void
  /** Stops timers (the session ends). */
  dispose(): void
}

export type EditorState = EditorData & CoreActions & EditActions & FileActions
export type EditorStore = StoreApi<EditorState>

export const DEFAULT_DEBOUNCE_MS = 200
const DRAFT_DELAY_MS = 400

/** Internals shared with the action modules. */
export interface EditorContext {
  get(): EditorState
  set(partial: Partial<EditorData>): void
  deps: EditorDeps
  /** Replaces the document without recording history (load, reload, undo). */
  reset(doc: Workflow, options?: CommitOptions & { savedJson?: string }): void
}

function jsonOf(doc: Workflow): string {
  return JSON.stringify(doc)
}

export function createEditorStore(init: EditorInit, deps: EditorDeps): EditorStore {
  const debounceMs = deps.debounceMs ?? DEFAULT_DEBOUNCE_MS
  const now = deps.now ?? Date.now
  const cache = new WeakMap<Workflow, Analysis>()
  let builder = new NodeBuilder(deps.tools())
  let builtFor = deps.tools()
  let generation = 0
  let analysisTimer: ReturnType<typeof setTimeout> | undefined
  let draftTimer: ReturnType<typeof setTimeout> | undefined
  let inflight: { doc: Workflow; promise: Promise<Analysis> } | undefined
  let disposed = false

  function nodesOf(doc: Workflow) {
    if (deps.tools() !== builtFor) {
      builtFor = deps.tools()
      builder = new NodeBuilder(builtFor)
    }
    return builder.build(doc)
  }

  const firstNodes = nodesOf(init.doc)
  const firstEdges = init.graph?.edges ?? []
  const firstLayout = autoLayout(firstNodes, firstEdges, init.view)
  // A file that places some nodes keeps them there; the others go beside their sources, in
  // free space (the automatic layout would put them on top of the placed ones).
  const placedAtStart = positionsOf(init.doc)
  const firstAuto =
    placedAtStart && Object.keys(placedAtStart).length > 0
      ? placeMissing(firstNodes, firstEdges, placedAtStart, notesOf(init.doc))
      : positionsOfLayout(firstLayout)
  const firstPositions = { ...firstAuto, ...(placedAtStart ?? {}) }
  const savedJson = init.savedJson ?? jsonOf(init.doc)

  const store = createStore<EditorState>()((set, get) => {
    /** Everything derived from a new document: canvas view, dirty flag, stale marks. */
    function derive(before: EditorData, doc: Workflow, options: CommitOptions = {}, savedJsonNow = before.savedJson): Partial<EditorData> {
      const nodes = nodesOf(doc)
      const known = cache.get(doc)
      const edges: GraphEdge[] = known?.graph ? known.graph.edges : adjustEdges(before.edges, nodes, options.renames, options.edges)
      let auto = options.renames ? renameKeys(before.auto, options.renames, true) : before.auto
      if (options.place) auto = { ...auto, ...options.place }
      const fixed = positionsOf(doc) ?? {}
      const placed = { ...auto, ...fixed }
      const notes = notesOf(doc)
      const missing = placeMissing(nodes, edges, placed, notes)
      if (Object.keys(missing).length > 0) auto = { ...auto, ...missing }
      const positions = { ...auto, ...fixed }
      const layout = options.renames ? renameLayout(before.layout, options.renames) : before.layout
      const ids = new Set(nodes.map((n) => n.id))
      for (const n of notes) ids.add(noteNodeId(n.id))
      const wanted = options.select ?? (options.renames ? before.selection.map((id) => options.renames![id] ?? id) : before.selection)
      const selection = wanted.filter((id) => ids.has(id))
      const changed = changedSteps(before.doc, doc)
      let stale = options.renames ? renameKeys(before.stale, options.renames) : before.stale
      if (changed.length > 0) {
        stale = { ...stale }
        for (const id of downstream(changed, edges)) if (ids.has(id)) stale[id] = true
      }
      const dirty = doc !== before.doc || savedJsonNow !== before.savedJson ? jsonOf(doc) !== savedJsonNow : before.dirty
      return {
        doc,
        nodes,
        nodeKeys: followKeys(before.nodeKeys, before.doc, doc, options.renames),
        edges,
        auto,
        positions,
        layout,
        routes: liveRoutes(layout, nodes, positions, before.routes),
        notes,
        selection: sameList(selection, before.selection) ? before.selection : selection,
        edgeSelection: before.edgeSelection.filter((id) => edges.some((e) => e.id === id)),
        stale,
        dirty,
        savedJson: savedJsonNow,
        analysis: known ?? before.analysis,
        analysedDoc: known ? doc : before.analysedDoc,
        notice: options.notice,
        renamed: options.renames,
      }
    }

    function afterChange(): void {
      generation += 1
      clearTimeout(analysisTimer)
      if (cache.has(get().doc)) set({ analysing: false })
      else {
        set({ analysing: true })
        analysisTimer = setTimeout(() => void analyse(), debounceMs)
      }
      clearTimeout(draftTimer)
      draftTimer = setTimeout(keepDraft, DRAFT_DELAY_MS)
    }

    function keepDraft(): void {
      if (disposed || deps.storage === null) return
      const s = get()
      const store = deps.storage ?? undefined
      if (!s.dirty) {
        removeDraft(s.source.key, store)
        return
      }
      const ok = saveDraft(
        {
          key: s.source.key,
          label: s.source.label,
          id: s.source.id,
          readOnly: s.source.readOnly,
          version: s.source.version,
          savedJson: s.savedJson,
          doc: s.doc,
          savedAt: now(),
        },
        store,
      )
      if (!ok)
        set({
          notice: {
            tone: 'warning',
            text: 'Unsaved changes could not be kept in this browser (storage full or disabled): save or export before closing the tab.',
          },
        })
    }

    async function analyse(): Promise<Analysis> {
      const mine = generation
      const doc = get().doc
      if (inflight && inflight.doc === doc) return inflight.promise
      const promise = Promise.all([deps.api.plan(doc), deps.api.references(doc)]).then(([plan, references]) => {
        const answer: Analysis = { diagnostics: plan.diagnostics ?? [], graph: plan.graph, references }
        cache.set(doc, answer)
        return answer
      })
      inflight = { doc, promise }
      try {
        const answer = await promise
        // An answer for a document that has since changed is dropped (it stays cached for undo).
        if (mine === generation && !disposed) {
          set({ analysis: answer, analysedDoc: doc, analysing: false, analysisError: undefined, edges: answer.graph?.edges ?? get().edges })
        }
        return answer
      } catch (e) {
        if (mine === generation && !disposed) set({ analysing: false, analysisError: errorInfo(e).message })
        throw e
      } finally {
        if (inflight?.promise === promise) inflight = undefined
      }
    }

    const ctx: EditorContext = {
      get,
      set: (partial) => set(partial),
      deps,
      reset: (doc, options = {}) => {
        set(derive(get(), doc, { notice: get().notice, ...options }, options.savedJson ?? get().savedJson))
        afterChange()
      },
    }

    const core: CoreActions = {
      commit: (next, options = {}) => {
        const before = get()
        if (next === before.doc) {
          if (options.notice) set({ notice: options.notice })
          return
        }
        set({ ...derive(before, next, options), history: record(before.history, before.doc, options.key) })
        afterChange()
      },
      undo: () => {
        const before = get()
        const step = undo(before.history, before.doc)
        if (!step) return
        set({ ...derive(before, step.doc), history: step.history })
        afterChange()
      },
      redo: () => {
        const before = get()
        const step = redo(before.history, before.doc)
        if (!step) return
        set({ ...derive(before, step.doc), history: step.history })
        afterChange()
      },
      seal: () => set({ history: seal(get().history) }),
      select: (ids) => {
        if (sameList(ids, get().selection)) return
        set({ selection: ids, history: seal(get().history) })
      },
      selectEdges: (ids) => {
        if (!sameList(ids, get().edgeSelection)) set({ edgeSelection: ids })
      },
      setNotice: (notice) => set({ notice }),
      requestConnect: (request) => set({ connecting: request }),
      complete: async (req) => {
        try {
          return await deps.api.complete({ definition: get().doc as never, ...req })
        } catch {
          // No suggestions while the server cannot answer; typing goes on.
          return { from: req.cursor, to: req.cursor, items: [] }
        }
      },
      focusField: (stepId, field) => set({ focus: { stepId, field, seq: (get().focus?.seq ?? 0) + 1 } }),
      analysisNow: async () => {
        const doc = get().doc
        const known = cache.get(doc)
        if (known) return known
        clearTimeout(analysisTimer)
        return analyse()
      },
      clearStale: () => {
        if (Object.keys(get().stale).length > 0) set({ stale: {} })
      },
      flushDraft: () => {
        clearTimeout(draftTimer)
        keepDraft()
      },
      dispose: () => {
        disposed = true
        clearTimeout(analysisTimer)
        clearTimeout(draftTimer)
      },
    }

    const initial: EditorData = {
      doc: init.doc,
      source: init.source,
      savedJson,
      dirty: jsonOf(init.doc) !== savedJson,
      history: emptyHistory,
      selection: [],
      edgeSelection: [],
      auto: firstAuto,
      layout: firstLayout,
      routes: liveRoutes(firstLayout, firstNodes, firstPositions),
      nodes: firstNodes,
      nodeKeys: initialKeys(init.doc),
      edges: firstEdges,
      positions: firstPositions,
      notes: notesOf(init.doc),
      // The read-only view's strict plan, until the draft-mode answer with references arrives.
      analysis: { diagnostics: init.diagnostics ?? [], graph: init.graph },
      analysing: false,
      stale: {},
      busy: false,
    }
    return { ...initial, ...core, ...editActions(ctx), ...fileActions(ctx) }
  })

  // The first analysis: the read-only view's plan was strict; the editor wants draft mode and
  // the reference index.
  store.setState({ analysing: true })
  analysisTimer = setTimeout(
    () =>
      void store
        .getState()
        .analysisNow()
        .catch(() => undefined),
    0,
  )
  return store
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
