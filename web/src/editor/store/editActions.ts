//! The editing operations, as the canvas and inspector call them: each turns the pure document
//! operations of ../doc into one `commit` (one undo entry), asking the server first when the
//! edit needs the engine's parser (references for disconnect and delete, rewrites for renames
//! and paste). Failures leave the document as it was and say why in a notice.
import type { Note, ReferenceSite, Step, Workflow } from '../../api/types'
import { errorInfo } from '../../api/client'
import { addStep as addStepOp, appendSteps } from '../doc/addStep'
import { copySteps, parseFragment, pasteIds, placeFragment } from '../doc/clipboard'
import { connect as connectOp, type Connection } from '../doc/connect'
import { addNote as addNoteOp, deleteNotes, newNoteId, positionsOf, setPositions, updateNote as updateNoteOp } from '../doc/layout'
import { isStepNode, noteIdOf, noteNodeId, stepIds, updateStep, type XY } from '../doc/model'
import { besides, freeOffset, freeSpot, occupiedBoxes, sizeOf } from '../doc/placement'
import { deleteSteps, removeReferences, sitesOfEdge } from '../doc/references'
import { applyRewrite, renameKeys, rewrittenSteps } from '../doc/rewrite'
import { edgeOf } from '../doc/view'
import { unionBox } from '../../canvas/geometry'
import { fits, STEP_SIZE, type LayoutView } from '../../canvas/layout'
import { autoLayout, positionsOfLayout } from './autoLayout'
import type { EditorContext } from './createEditorStore'

export interface EditActions {
  /** Adds a step of `tool` at `at` (else beside the selected node); returns its id. */
  addStep(tool: string, at?: XY): string
  /** Adds a step and connects `source` to it (a connection released on empty canvas). */
  connect(c: Connection): boolean
  disconnectEdges(ids: string[]): Promise<void>
  /** Deletes nodes (steps with the wires into them, notes); the inputs and output nodes stay. */
  deleteNodes(ids: string[]): Promise<void>
  /** Moves nodes; `key` coalesces successive moves (arrow keys) into one undo entry. */
  moveNodes(moved: Record<string, XY>, key?: string): void
  /** Lays the graph out again for `view` (written to the file only when it keeps positions). */
  relayout(view?: LayoutView): void
  /**
   * Lays the graph out again for the builder's canvas when the layout it started with (the
   * read-only view's, made for a wider canvas) does not fit it, one made for it does, and the
   * document places no node; returns whether it did. Not an edit: nothing is written.
   */
  fitLayoutTo(view: LayoutView): boolean
  copySelection(): string | undefined
  paste(text: string, at?: XY): Promise<void>
  duplicateSelection(): Promise<void>
  /** Renames a step and every reference to it; resolves to an error message, or undefined. */
  renameStep(from: string, to: string): Promise<string | undefined>
  renameInput(from: string, to: string): Promise<string | undefined>
  replaceStep(id: string, step: Step, field?: string): void
  replaceWorkflow(next: Workflow, field?: string): void
  addNote(at: XY): string
  updateNote(id: string, patch: Partial<Omit<Note, 'id'>>, field?: string): void
}

const RETRIES = 3

export function editActions(ctx: EditorContext): EditActions {
  const { get, deps } = ctx

  /** Writes positions into the document once it keeps them: all nodes the first time. */
  function withPositions(doc: Workflow, moved: Record<string, XY>): Workflow {
    return positionsOf(doc) ? setPositions(doc, moved) : doc
  }

  /** The reference index of the current document, asking the server when needed. */
  async function referencesOfCurrent(): Promise<{ doc: Workflow; sites: ReferenceSite[] }> {
    for (let attempt = 0; ; attempt++) {
      const doc = get().doc
      const analysis = await get().analysisNow()
      if (get().doc === doc || attempt >= RETRIES) return { doc, sites: analysis.references ?? [] }
    }
  }

  /** Runs `rewrite` against the current document, again if it changed during the request. */
  async function rewriteCurrent(body: { steps?: Record<string, string>; inputs?: Record<string, string> }): Promise<Workflow | string> {
    for (let attempt = 0; attempt <= RETRIES; attempt++) {
      const doc = get().doc
      let answer
      try {
        answer = await deps.api.rewrite({ definition: doc as never, ...body })
      } catch (e) {
        return errorInfo(e).message
      }
      if (get().doc !== doc) continue
      return applyRewrite(doc, answer.definition) ?? 'The server answered with something that is not a workflow.'
    }
    return 'The workflow kept changing; try again.'
  }

  /** What new nodes must not land on: every node and note as drawn now. */
  function occupied() {
    const { nodes, positions, notes } = get()
    return occupiedBoxes(nodes, positions, notes)
  }

  /** Where a new step goes: the free spot nearest `at`, else beside the selected node, else near the origin. */
  function spotFor(at: XY | undefined): XY {
    const { nodes, positions, selection } = get()
    if (at) return freeSpot(STEP_SIZE, at, occupied())
    const anchor = nodes.find((n) => selection.includes(n.id) && positions[n.id])
    return anchor ? besides({ ...positions[anchor.id], ...sizeOf(anchor) }, STEP_SIZE, occupied()) : freeSpot(STEP_SIZE, { x: 0, y: 0 }, occupied())
  }

  async function pasteFragment(text: string, at: XY | undefined, offset: XY): Promise<void> {
    const fragment = parseFragment(text)
    if ('error' in fragment) {
      ctx.set({ notice: { tone: 'error', text: fragment.error } })
      return
    }
    const renames = pasteIds(fragment.steps, stepIds(get().doc))
    let steps = fragment.steps
    if (Object.keys(renames).length > 0) {
      try {
        const answer = await deps.api.rewrite({ definition: { name: 'paste', steps: steps as never }, steps: renames })
        steps = rewrittenSteps(answer.definition) ?? steps
      } catch (e) {
        ctx.set({ notice: { tone: 'error', text: `Could not paste: ${errorInfo(e).message}` } })
        return
      }
    }
    const copied = renameKeys(fragment.positions, renames)
    const known = Object.values(copied)
    const origin =
      known.length > 0 ? { x: Math.min(...known.map((p) => p.x)) + offset.x, y: Math.min(...known.map((p) => p.y)) + offset.y } : spotFor(undefined)
    const wanted = placeFragment({ steps, positions: copied }, at ?? origin)
    // The group keeps its copied layout and moves, as one, to the free space nearest the spot.
    const shift = freeOffset(
      Object.values(wanted).map((p) => ({ ...p, ...STEP_SIZE })),
      occupied(),
    )
    const place = Object.fromEntries(Object.entries(wanted).map(([id, p]) => [id, { x: p.x + shift.x, y: p.y + shift.y }]))
    const doc = withPositions(appendSteps(get().doc, steps), place)
    get().commit(doc, { place, select: steps.map((s) => s.id) })
  }

  return {
    addStep: (tool, at) => {
      const before = get().doc
      const { doc, id } = addStepOp(before, tool, deps.tools()[tool])
      const spot = spotFor(at)
      get().commit(withPositions(doc, { [id]: spot }), { place: { [id]: spot }, select: [id] })
      return id
    },

    connect: (c) => {
      const links = get().edges
      const result = connectOp(get().doc, c, deps.tools(), links)
      if ('error' in result) {
        get().setNotice({ tone: 'error', text: result.error })
        return false
      }
      get().commit(result.doc, { edges: [edgeOf(c)] })
      return true
    },

    disconnectEdges: async (ids) => {
      const edges = get().edges.filter((e) => ids.includes(e.id))
      if (edges.length === 0) return
      let found
      try {
        found = await referencesOfCurrent()
      } catch (e) {
        get().setNotice({ tone: 'error', text: `Could not remove the connection: ${errorInfo(e).message}` })
        return
      }
      const sites = edges.flatMap((e) => sitesOfEdge(e, found.sites))
      const { doc, kept } = removeReferences(found.doc, sites)
      const first = kept[0]
      get().commit(doc, {
        notice: first
          ? {
              tone: 'warning',
              text: `The reference to ${first.site.target ?? first.site.path} in ${first.site.stepId ?? 'the output'} · ${first.site.field} was kept: ${first.reason}. Edit the field to remove it.`,
            }
          : sites.length === 0
            ? { tone: 'warning', text: 'That connection is no longer in the workflow.' }
            : undefined,
      })
      if (first) get().focusField(first.site.stepId, first.site.field)
    },

    deleteNodes: async (ids) => {
      const notes = new Set(ids.flatMap((id) => noteIdOf(id) ?? []))
      const steps = new Set(ids.filter(isStepNode))
      if (notes.size === 0 && steps.size === 0) {
        if (ids.length > 0)
          get().setNotice({ tone: 'info', text: 'The inputs and output nodes belong to every workflow; change them in the workflow settings.' })
        return
      }
      let doc = get().doc
      let sites: ReferenceSite[] = []
      let unreachable: string | undefined
      if (steps.size > 0) {
        try {
          ;({ doc, sites } = await referencesOfCurrent())
        } catch (e) {
          doc = get().doc
          unreachable = errorInfo(e).message
        }
      }
      const removal = deleteSteps(doc, steps, sites)
      const kept = removal.kept.length
      get().commit(deleteNotes(removal.doc, notes), {
        notice: unreachable
          ? { tone: 'warning', text: `Deleted, but references to the deleted steps could not be removed (${unreachable}); validation lists them.` }
          : kept > 0
            ? {
                tone: 'warning',
                text: `Deleted. ${kept} reference${kept === 1 ? '' : 's'} inside larger expressions still name${kept === 1 ? 's' : ''} the deleted step; the problems list shows where.`,
              }
            : undefined,
      })
    },

    moveNodes: (moved, key) => {
      const { doc, positions } = get()
      let next = doc
      const nodes: Record<string, XY> = {}
      for (const [id, p] of Object.entries(moved)) {
        const note = noteIdOf(id)
        if (note !== undefined) next = updateNoteOp(next, note, { x: Math.round(p.x), y: Math.round(p.y) })
        else nodes[id] = p
      }
      if (Object.keys(nodes).length > 0) {
        // The first move writes every node's position, so the file reproduces what was on screen.
        const all = positionsOf(next) ? nodes : { ...positions, ...nodes }
        next = setPositions(next, all)
      }
      get().commit(next, { place: nodes, key })
    },

    relayout: (view) => {
      const { doc, nodes, edges } = get()
      const layout = autoLayout(nodes, edges, view)
      const laid = positionsOfLayout(layout)
      // The routes hold for the new positions: the commit (or this) draws them.
      ctx.set({ layout })
      if (positionsOf(doc)) get().commit(setPositions(doc, laid), { place: laid })
      else ctx.set({ auto: laid, positions: laid, routes: layout.routes })
    },

    fitLayoutTo: (view) => {
      const { doc, layout, nodes, edges } = get()
      const boxes = Object.values(layout.boxes)
      if (positionsOf(doc) || boxes.length === 0 || fits(unionBox(boxes), view)) return false
      const next = autoLayout(nodes, edges, view)
      if (!next.fits) return false
      const laid = positionsOfLayout(next)
      ctx.set({ layout: next, auto: laid, positions: laid, routes: next.routes })
      return true
    },

    copySelection: () => {
      const { doc, selection, positions } = get()
      return copySteps(doc, new Set(selection), positions)
    },

    paste: (text, at) => pasteFragment(text, at, { x: 40, y: 40 }),

    duplicateSelection: async () => {
      const text = get().copySelection()
      if (text) await pasteFragment(text, undefined, { x: 40, y: 40 })
    },

    renameStep: async (from, to) => {
      if (from === to) return undefined
      const next = await rewriteCurrent({ steps: { [from]: to } })
      if (typeof next === 'string') return next
      get().commit(next, { renames: { [from]: to } })
      return undefined
    },

    renameInput: async (from, to) => {
      if (from === to) return undefined
      const next = await rewriteCurrent({ inputs: { [from]: to } })
      if (typeof next === 'string') return next
      get().commit(next)
      return undefined
    },

    replaceStep: (id, step, field) => {
      const renames = step.id !== id ? { [id]: step.id } : undefined
      get().commit(
        updateStep(get().doc, id, () => step),
        { key: field ? `step:${id}:${field}` : undefined, renames },
      )
    },

    replaceWorkflow: (next, field) => get().commit(next, { key: field ? `workflow:${field}` : undefined }),

    addNote: (at) => {
      const id = newNoteId(get().doc)
      get().commit(addNoteOp(get().doc, { id, x: Math.round(at.x), y: Math.round(at.y), width: 220, height: 120, text: '' }), { select: [noteNodeId(id)] })
      return id
    },

    updateNote: (id, patch, field) => get().commit(updateNoteOp(get().doc, id, patch), { key: field ? `note:${id}:${field}` : undefined }),
  }
}
