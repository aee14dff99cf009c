//! React Flow nodes and edges for the editor, built from the store with object reuse: a node
//! object changes only when its data, position, size or selection does, so React Flow and the
//! memoised node components redraw only what an edit touched. Steps are drawn under their
//! stable keys (doc/nodeKeys.ts), and edges between them keyed the same way, so a rename
//! updates them in place; what a person or a test reads of an edge — its accessible name and
//! `data-id` — follows the step ids all the same.
import { Position } from '@xyflow/react'
import type { GraphEdge, GraphNode, Note } from '../../api/types'
import type { CanvasEdge, CanvasNode } from '../../canvas/flowTypes'
import { nodeSize, routeOf, type Routes } from '../../canvas/layout'
import { toEdge } from '../../canvas/toFlow'
import { noteNodeId, type XY } from '../doc/model'
import { keyOf, type NodeKeys } from '../doc/nodeKeys'
import { edgeId } from '../doc/view'
import type { NoteFlowNode } from '../notes/NoteNode'

export type EditorNode = CanvasNode | NoteFlowNode

const ORIGIN: XY = { x: 0, y: 0 }
const NOTE_SIZE = { width: 220, height: 120 }

type Measured = { width?: number; height?: number }

export class FlowNodeCache {
  private nodes = new Map<string, EditorNode>()
  private edges = new Map<string, { from: GraphEdge; edge: CanvasEdge }>()
  /** React Flow edge id → the graph's edge id (what the store selects). */
  private edgeIds = new Map<string, string>()
  private lastNodes: EditorNode[] = []
  private lastEdges: CanvasEdge[] = []
  /** Sizes React Flow measured, carried onto new node objects so handles stay measured. */
  readonly measured = new Map<string, Measured>()

  private reuse(id: string, make: () => EditorNode, same: (prev: EditorNode) => boolean): EditorNode {
    const prev = this.nodes.get(id)
    if (prev && same(prev)) return prev
    const node = make()
    this.nodes.set(id, node)
    return node
  }

  build(
    graph: GraphNode[],
    keys: NodeKeys,
    notes: Note[],
    positions: Record<string, XY>,
    dragged: Record<string, XY>,
    selection: ReadonlySet<string>,
    resized: Record<string, { width: number; height: number }> = {},
  ): EditorNode[] {
    const out: EditorNode[] = []
    for (const g of graph) {
      const key = keyOf(keys, g.id)
      const at = dragged[g.id] ?? positions[g.id] ?? ORIGIN
      const selected = selection.has(g.id)
      out.push(
        this.reuse(
          key,
          () => {
            const size = nodeSize({ type: g.kind, data: g } as CanvasNode)
            return {
              id: key,
              type: g.kind,
              data: g,
              position: { x: at.x, y: at.y },
              selected,
              width: size.width,
              height: size.height,
              measured: this.measured.get(key),
              sourcePosition: Position.Right,
              targetPosition: Position.Left,
              deletable: false,
            } as CanvasNode
          },
          (p) => p.data === g && p.position.x === at.x && p.position.y === at.y && p.selected === selected,
        ),
      )
    }
    for (const note of notes) {
      const id = noteNodeId(note.id)
      const at = dragged[id] ?? note
      const selected = selection.has(id)
      const width = resized[id]?.width ?? note.width ?? NOTE_SIZE.width
      const height = resized[id]?.height ?? note.height ?? NOTE_SIZE.height
      out.push(
        this.reuse(
          id,
          () => ({
            id,
            type: 'note',
            data: { note },
            position: { x: at.x, y: at.y },
            selected,
            width,
            height,
            measured: this.measured.get(id),
            deletable: false,
            zIndex: -1,
          }),
          (p) =>
            p.type === 'note' &&
            p.data.note === note &&
            p.position.x === at.x &&
            p.position.y === at.y &&
            p.selected === selected &&
            p.width === width &&
            p.height === height,
        ),
      )
    }
    return (this.lastNodes = sameItems(out, this.lastNodes) ? this.lastNodes : out)
  }

  buildEdges(graph: GraphEdge[], keys: NodeKeys, selection: ReadonlySet<string>, routes: Routes = {}): CanvasEdge[] {
    const out = graph.map((g) => {
      const source = keyOf(keys, g.source)
      const target = keyOf(keys, g.target)
      const id = source === g.source && target === g.target ? g.id : edgeId(source, target, g.field)
      const prev = this.edges.get(id)
      const selected = selection.has(g.id)
      const route = routeOf(routes, g.source, g.target)
      // Plans return new edge objects each time; an edge that reads the same is kept.
      if (
        prev &&
        (prev.from === g ||
          (prev.from.kind === g.kind &&
            prev.from.label === g.label &&
            prev.from.field === g.field &&
            prev.from.source === g.source &&
            prev.from.target === g.target)) &&
        (prev.edge.selected ?? false) === selected &&
        prev.edge.data?.route === route
      ) {
        return prev.edge
      }
      const drawn = toEdge(g)
      const edge: CanvasEdge = { ...drawn, id, source, target, selected, data: { ...drawn.data!, route } }
      // The page shows the graph's id (what the workflow calls it), whatever the key. (React
      // Flow never reads an edge's data-id back; its types just do not list data attributes.)
      if (id !== g.id) edge.domAttributes = { 'data-id': g.id } as CanvasEdge['domAttributes']
      this.edges.set(id, { from: g, edge })
      this.edgeIds.set(id, g.id)
      return edge
    })
    return (this.lastEdges = sameItems(out, this.lastEdges) ? this.lastEdges : out)
  }

  /** The graph's id of a drawn edge. */
  edgeIdOf(flowId: string): string {
    return this.edgeIds.get(flowId) ?? flowId
  }
}

/**
 * Whether two lists hold the same objects in the same order. The previous list is then handed
 * to React Flow again: a new list, even of the same objects, makes it re-index every edge (its
 * connection lookup) or node, which on 200 steps costs more than the edit itself.
 */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
