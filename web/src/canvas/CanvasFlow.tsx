//! React Flow over one graph. Nodes and edges are built and laid out once per graph (for the
//! canvas as it is then) and then left to React Flow (uncontrolled), so neither run progress
//! nor selection rebuilds them. Fitting keeps titles legible (legibleFit.ts), a run is followed
//! (useFollowRun.ts); presenter mode lays out and fits larger and opens a node's inspector
//! overlay on Enter or double-click. A sub-workflow's nodes are not selected: the inspector
//! shows the open workflow's steps. With a past run shown, a step's context menu restarts it.
import { useTheme } from '@mui/material/styles'
import { Background, Controls, ReactFlow, useReactFlow, useStore, type NodeMouseHandler, type OnSelectionChangeFunc } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { GraphView } from '../api/types'
import { useApp } from '../app/AppContext'
import type { AppStores } from '../app/createApp'
import RestartContextMenu, { type MenuAt } from '../history/RestartContextMenu'
import { useRestart } from '../history/useRestart'
import { PRESENTER_SCALE, usePresenterStore } from '../shell/presenter'
import { useWorkflowStore } from '../state/workflowStore'
import { useCanvasScope } from './canvasScope'
import CanvasMiniMap from './CanvasMiniMap'
import CanvasToolbar from './CanvasToolbar'
import { IO_COLOR, MINIMAP_ABOVE, type CanvasEdge, type CanvasNode } from './flowTypes'
import { layoutNodes, type LayoutView } from './layout'
import { fitView } from './legibleFit'
import { edgeTypes, nodeTypes } from './nodeTypes'
import { graphToFlow, withRoutes } from './toFlow'
import { useFollowRun } from './useFollowRun'
import { FIT_MS, useCanvasView, useLegibleFit } from './useLegibleFit'

/** Past this many nodes, only what is on screen is rendered (keeps pan and zoom smooth). */
const VISIBLE_ONLY_ABOVE = 120

const miniMapColor = (node: CanvasNode) => (node.type === 'step' ? node.data.color : IO_COLOR)

/** The view for a graph's first layout: the canvas region as last measured (none in tests). */
function measuredView({ canvas, presenter }: AppStores): LayoutView | undefined {
  const size = canvas.getState().size
  if (!size?.width || !size.height) return undefined
  return fitView(size.width, size.height, presenter.getState().on ? PRESENTER_SCALE : 1)
}

function laidOut(graph: GraphView, view: LayoutView | undefined) {
  const { nodes, edges } = graphToFlow(graph)
  const laid = layoutNodes(nodes, edges, view)
  return { nodes: laid.nodes, edges: withRoutes(edges, laid.routes), view, whole: laid.fits === true }
}

export default function CanvasFlow({ graph }: { graph: GraphView }) {
  const mode = useTheme().palette.mode
  const { stores } = useApp()
  const selectStep = useWorkflowStore((s) => s.select)
  const inSub = useCanvasScope().path.length > 0
  const select = useCallback((id?: string) => (inSub ? undefined : selectStep(id)), [inSub, selectStep])
  const flow = useReactFlow<CanvasNode, CanvasEdge>()
  const { setNodes, setEdges, getNodes, getEdges, setCenter, getNode, getZoom } = flow
  const sized = useStore((s) => s.width > 0 && s.height > 0)
  const presenting = usePresenterStore((s) => s.on)
  const inspect = usePresenterStore((s) => s.inspect)

  const laid = useMemo(() => laidOut(graph, measuredView(stores)), [graph, stores])
  // A graph shown whole needs no minimap (it would only cover some of it).
  const [whole, setWhole] = useState(laid.whole)

  const fitTo = useLegibleFit()
  const viewNow = useCanvasView()
  useFollowRun()

  // The first graph arrives through defaultNodes; later ones replace the nodes. Each is fitted
  // once the canvas has a size.
  const shown = useRef(laid)
  const fitted = useRef<typeof laid>(undefined)
  useEffect(() => stores.canvas.setState({ laidFor: laid.view }), [laid, stores])
  useEffect(() => {
    if (shown.current !== laid) {
      shown.current = laid
      setWhole(laid.whole)
      setNodes(laid.nodes)
      setEdges(laid.edges)
    }
    if (!sized || fitted.current === laid) return
    const first = fitted.current === undefined
    fitted.current = laid
    fitTo(laid.nodes, first ? 0 : FIT_MS, laid.edges)
  }, [laid, sized, setNodes, setEdges, fitTo])

  /** Lays the graph out again for the canvas as it is now, and fits it. */
  const relayout = useCallback(() => {
    const view = viewNow()
    const next = layoutNodes(getNodes(), getEdges(), view)
    const edges = withRoutes(getEdges(), next.routes)
    stores.canvas.setState({ laidFor: view })
    setWhole(next.fits === true)
    setNodes(next.nodes)
    setEdges(edges)
    fitTo(next.nodes, FIT_MS, edges)
  }, [viewNow, getNodes, getEdges, setNodes, setEdges, fitTo, stores])

  // Entering or leaving presenter mode lays the graph out for its new scale.
  const presented = useRef(presenting)
  useEffect(() => {
    if (presented.current === presenting) return
    presented.current = presenting
    relayout()
  }, [presenting, relayout])

  useEffect(
    () =>
      stores.canvas.getState().attach((id) => {
        const node = getNode(id)
        if (!node) return
        const width = node.measured?.width ?? node.width ?? 0
        const height = node.measured?.height ?? node.height ?? 0
        void setCenter(node.position.x + width / 2, node.position.y + height / 2, {
          zoom: Math.max(getZoom(), 0.9),
          duration: 300,
        })
      }),
    [getNode, getZoom, setCenter, stores],
  )

  const fit = useCallback(() => fitTo(getNodes(), FIT_MS), [fitTo, getNodes])

  const restartable = useRestart().offered && !inSub
  const [menu, setMenu] = useState<MenuAt>()
  const onNodeContextMenu = useCallback<NodeMouseHandler<CanvasNode>>(
    (event, node) => {
      if (node.type !== 'step') return
      event.preventDefault()
      select(node.id)
      setMenu({ x: event.clientX, y: event.clientY, stepId: node.id })
    },
    [select],
  )

  const onNodeClick = useCallback<NodeMouseHandler<CanvasNode>>((_, node) => select(node.id), [select])
  const onPaneClick = useCallback(() => select(undefined), [select])
  const present = useCallback(
    (id: string) => {
      if (inSub) return
      select(id)
      inspect(true)
    },
    [inSub, select, inspect],
  )
  const onNodeDoubleClick = useCallback<NodeMouseHandler<CanvasNode>>((_, node) => present(node.id), [present])
  // Enter on a focused node: React Flow selects it; in presenter mode its inspector opens too.
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const id = event.key === 'Enter' && event.target instanceof Element ? event.target.closest('.react-flow__node')?.getAttribute('data-id') : null
      if (id) present(id)
    },
    [present],
  )
  // Keyboard selection (Tab to a node, Enter) goes through React Flow's selection.
  const onSelectionChange = useCallback<OnSelectionChangeFunc<CanvasNode, CanvasEdge>>(
    ({ nodes }) => {
      if (nodes.length === 1 && stores.workflow.getState().selected !== nodes[0].id) select(nodes[0].id)
    },
    [select, stores],
  )

  return (
    <ReactFlow<CanvasNode, CanvasEdge>
      defaultNodes={laid.nodes}
      defaultEdges={laid.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      colorMode={mode}
      minZoom={0.05}
      maxZoom={2}
      onlyRenderVisibleElements={laid.nodes.length > VISIBLE_ONLY_ABOVE}
      nodesConnectable={false}
      edgesReconnectable={false}
      deleteKeyCode={null}
      onNodeClick={onNodeClick}
      onPaneClick={onPaneClick}
      onNodeDoubleClick={presenting ? onNodeDoubleClick : undefined}
      onNodeContextMenu={restartable ? onNodeContextMenu : undefined}
      onKeyDown={presenting ? onKeyDown : undefined}
      zoomOnDoubleClick={!presenting}
      onSelectionChange={onSelectionChange}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={20} />
      <Controls showFitView={false} showInteractive={false} />
      {!whole && laid.nodes.length > MINIMAP_ABOVE && <CanvasMiniMap<CanvasNode> nodeColor={miniMapColor} />}
      <CanvasToolbar onRelayout={relayout} onFit={fit} />
      {restartable && <RestartContextMenu at={menu} onClose={() => setMenu(undefined)} />}
    </ReactFlow>
  )
}
