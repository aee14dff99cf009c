//! React Flow while editing: nodes come from the editor store (reused objects, see flowNodes.ts),
//! drags stay local until released and then become one move, connections dragged between
//! nodes open the connect menu (unless refused while dragged: ConnectionHint), and tools or
//! output fields dropped on the canvas add a step or a reference. Unlike the read-only canvas,
//! every node is rendered, not only those on screen: React Flow works out what is on screen for
//! every node and edge again at each change of its store, and an edit changes it twice (nodes,
//! then edges) — on 200 steps that cost more than drawing the few off-screen nodes saves
//! (docs/benchmarks.md, Builder). Edges follow the automatic layout's routes while those hold
//! (store/autoLayout.ts); the canvas fits legibly (useEditorFit.ts) and follows a run
//! (useFollowRun.ts) as the read-only one does.
import { useTheme } from '@mui/material/styles'
import { Background, Controls, ReactFlow, useReactFlow, type EdgeChange, type NodeChange, type OnConnectEnd, type OnNodeDrag } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useState } from 'react'
import CanvasMiniMap from '../../canvas/CanvasMiniMap'
import { CanvasScopeContext } from '../../canvas/canvasScope'
import { IO_COLOR, MINIMAP_ABOVE } from '../../canvas/flowTypes'
import { nodeTypes as readNodeTypes, edgeTypes } from '../../canvas/nodeTypes'
import { useApp } from '../../app/AppContext'
import { useFollowRun } from '../../canvas/useFollowRun'
import type { XY } from '../doc/model'
import { idOfKey, keyOf } from '../doc/nodeKeys'
import NoteNode, { NOTE_COLOR } from '../notes/NoteNode'
import { useEditor, useEditorStore } from '../useEditor'
import type { ConnectRequest } from '../store/state'
import ConnectionHint from './ConnectionHint'
import { FlowNodeCache, type EditorNode } from './flowNodes'
import { connectionAllowed, refusedOver } from './refusedOver'
import { nodeAt, useCanvasDrop } from './useCanvasDrop'
import { useEditorFit } from './useEditorFit'
import { useEditorKeys } from './useEditorKeys'

const nodeTypes = { ...readNodeTypes, note: NoteNode }
const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control']

const miniMapColor = (node: EditorNode) => (node.type === 'step' ? node.data.color : node.type === 'note' ? NOTE_COLOR : IO_COLOR)

export interface PaletteRequest {
  /** Connect the new step from this node. */
  source: string
  at: { left: number; top: number }
  /** Where the new step goes, in flow coordinates. */
  position: XY
}

interface Props {
  onConnectRequest(request: ConnectRequest): void
  onPaletteRequest(request: PaletteRequest): void
}

function pointOf(event: MouseEvent | TouchEvent): { x: number; y: number } {
  if ('changedTouches' in event && event.changedTouches.length > 0) return { x: event.changedTouches[0].clientX, y: event.changedTouches[0].clientY }
  const m = event as MouseEvent
  return { x: m.clientX, y: m.clientY }
}

export default function EditorFlow({ onConnectRequest, onPaletteRequest }: Props) {
  const mode = useTheme().palette.mode
  const store = useEditorStore()
  const graph = useEditor((s) => s.nodes)
  const keys = useEditor((s) => s.nodeKeys)
  const notes = useEditor((s) => s.notes)
  const positions = useEditor((s) => s.positions)
  const selection = useEditor((s) => s.selection)
  const graphEdges = useEditor((s) => s.edges)
  const edgeSelection = useEditor((s) => s.edgeSelection)
  const routes = useEditor((s) => s.routes)
  const [cache] = useState(() => new FlowNodeCache())
  const [dragged, setDragged] = useState<Record<string, XY>>({})
  // A note being resized shows its new size at once; the note keeps it when the resize ends.
  const [resized, setResized] = useState<Record<string, { width: number; height: number }>>({})
  const selected = useMemo(() => new Set(selection), [selection])
  const selectedEdges = useMemo(() => new Set(edgeSelection), [edgeSelection])
  const nodes = useMemo(
    () => cache.build(graph, keys, notes, positions, dragged, selected, resized),
    [cache, graph, keys, notes, positions, dragged, selected, resized],
  )
  const edges = useMemo(() => cache.buildEdges(graphEdges, keys, selectedEdges, routes), [cache, graphEdges, keys, selectedEdges, routes])
  const flow = useReactFlow<EditorNode>()
  const { screenToFlowPosition, getNode, getZoom, setCenter } = flow

  useEditorKeys()
  const stepKey = useCallback((id: string) => keyOf(store.getState().nodeKeys, id), [store])
  useFollowRun(stepKey)

  useEditorFit(store)

  const { canvas } = useApp().stores
  useEffect(
    () =>
      canvas.getState().attach((id) => {
        const node = getNode(keyOf(store.getState().nodeKeys, id))
        if (!node) return
        void setCenter(node.position.x + (node.width ?? 0) / 2, node.position.y + (node.height ?? 0) / 2, { zoom: Math.max(getZoom(), 0.9), duration: 300 })
      }),
    [getNode, getZoom, setCenter, store, canvas],
  )

  // React Flow speaks in node keys; the store in step ids.
  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      let selection: Set<string> | undefined
      const moving: Record<string, XY> = {}
      const moved: Record<string, XY> = {}
      const sizes: Record<string, { width: number; height: number }> = {}
      let resizeEnded = false
      const keys = store.getState().nodeKeys
      for (const c of changes) {
        if (c.type === 'dimensions' && c.dimensions && c.resizing) sizes[c.id] = c.dimensions
        else if (c.type === 'dimensions' && c.resizing === false) resizeEnded = true
        else if (c.type === 'dimensions' && c.dimensions) cache.measured.set(c.id, c.dimensions)
        else if (c.type === 'position' && c.position) (c.dragging ? moving : moved)[idOfKey(keys, c.id)] = c.position
        else if (c.type === 'select') {
          selection ??= new Set(store.getState().selection)
          if (c.selected) selection.add(idOfKey(keys, c.id))
          else selection.delete(idOfKey(keys, c.id))
        }
      }
      if (Object.keys(moving).length > 0) setDragged((d) => ({ ...d, ...moving }))
      if (Object.keys(sizes).length > 0) setResized((r) => ({ ...r, ...sizes }))
      // The note itself holds its size once the resize ends (NoteNode writes it).
      if (resizeEnded) setResized({})
      // Moves without a drag come from the keyboard (arrow keys on selected nodes).
      if (Object.keys(moved).length > 0) store.getState().moveNodes(moved, 'keyboard-move')
      if (selection) store.getState().select([...selection])
    },
    [cache, store],
  )

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      let selection: Set<string> | undefined
      for (const c of changes) {
        if (c.type !== 'select') continue
        selection ??= new Set(store.getState().edgeSelection)
        if (c.selected) selection.add(cache.edgeIdOf(c.id))
        else selection.delete(cache.edgeIdOf(c.id))
      }
      if (selection) store.getState().selectEdges([...selection])
    },
    [cache, store],
  )

  const onNodeDragStop = useCallback<OnNodeDrag<EditorNode>>(
    (_, __, dropped) => {
      const keys = store.getState().nodeKeys
      store.getState().moveNodes(Object.fromEntries(dropped.map((n) => [idOfKey(keys, n.id), n.position])))
      setDragged({})
    },
    [store],
  )

  const onConnectEnd = useCallback<OnConnectEnd>(
    (event, state) => {
      const keys = store.getState().nodeKeys
      const fromKey = state.fromNode?.id
      if (!fromKey) return
      const from = idOfKey(keys, fromKey)
      const { x, y } = pointOf(event)
      const at = { left: x, top: y }
      const overKey = state.toNode?.id ?? nodeAt(x, y)
      const over = overKey === undefined ? undefined : idOfKey(keys, overKey)
      if (over && over !== from) {
        // Dragged backwards from an input handle: the node released on is the source.
        const reversed = state.fromHandle?.type === 'target'
        const refused = refusedOver(store, fromKey, reversed, overKey)
        if (refused) store.getState().setNotice({ tone: 'warning', text: refused })
        else onConnectRequest({ source: reversed ? over : from, target: reversed ? from : over, at })
      } else if (!over && state.fromHandle?.type !== 'target') {
        onPaletteRequest({ source: from, at, position: screenToFlowPosition({ x, y }) })
      }
    },
    [onConnectRequest, onPaletteRequest, screenToFlowPosition, store],
  )

  const { onDragOver, onDrop } = useCanvasDrop(onConnectRequest)

  const isValidConnection = useMemo(() => connectionAllowed(store), [store])
  // The cost and time overlay's critical path runs over the edges as edited (read, not followed).
  const scope = useMemo(() => ({ path: [], edges: () => store.getState().edges }), [store])

  return (
    <CanvasScopeContext value={scope}>
      <ReactFlow<EditorNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        colorMode={mode}
        minZoom={0.05}
        maxZoom={2}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onNodeDragStop}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        connectOnClick={false}
        edgesReconnectable={false}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        onDragOver={onDragOver}
        onDrop={onDrop}
        proOptions={{ hideAttribution: true }}
      >
        <ConnectionHint />
        <Background gap={20} />
        <Controls showFitView={false} showInteractive={false} />
        {nodes.length > MINIMAP_ABOVE && <CanvasMiniMap<EditorNode> nodeColor={miniMapColor} />}
      </ReactFlow>
    </CanvasScopeContext>
  )
}
