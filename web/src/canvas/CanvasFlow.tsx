//! React Flow over one graph. Nodes and edges are built and laid out once per graph and then
//! left to React Flow (uncontrolled), so neither run progress nor selection rebuilds them.
import { useTheme } from '@mui/material/styles'
import { Background, Controls, MiniMap, ReactFlow, useReactFlow, type NodeMouseHandler, type OnSelectionChangeFunc } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import type { GraphView } from '../api/types'
import { useWorkflowStore } from '../state/workflowStore'
import CanvasToolbar from './CanvasToolbar'
import { IO_COLOR, MINIMAP_ABOVE, type CanvasEdge, type CanvasNode } from './flowTypes'
import { layoutNodes } from './layout'
import { edgeTypes, nodeTypes } from './nodeTypes'
import { graphToFlow } from './toFlow'
import { useCanvasStore } from './useCanvasStore'

const FIT = { padding: 0.15, maxZoom: 1.25, duration: 250 }
/** Past this many nodes, only what is on screen is rendered (keeps pan and zoom smooth). */
const VISIBLE_ONLY_ABOVE = 120

const miniMapColor = (node: CanvasNode) => (node.type === 'step' ? node.data.color : IO_COLOR)

export default function CanvasFlow({ graph }: { graph: GraphView }) {
  const mode = useTheme().palette.mode
  const select = useWorkflowStore((s) => s.select)
  const flow = useReactFlow<CanvasNode, CanvasEdge>()
  const { setNodes, setEdges, getEdges, fitView, setCenter, getNode, getZoom } = flow

  const laid = useMemo(() => {
    const { nodes, edges } = graphToFlow(graph)
    return { nodes: layoutNodes(nodes, edges), edges }
  }, [graph])

  // The first graph arrives through defaultNodes; later ones replace the nodes and refit.
  const shown = useRef(laid)
  useEffect(() => {
    if (shown.current === laid) return
    shown.current = laid
    setNodes(laid.nodes)
    setEdges(laid.edges)
    void fitView(FIT)
  }, [laid, setNodes, setEdges, fitView])

  useEffect(
    () =>
      useCanvasStore.getState().attach((id) => {
        const node = getNode(id)
        if (!node) return
        const width = node.measured?.width ?? node.width ?? 0
        const height = node.measured?.height ?? node.height ?? 0
        void setCenter(node.position.x + width / 2, node.position.y + height / 2, {
          zoom: Math.max(getZoom(), 0.9),
          duration: 300,
        })
      }),
    [getNode, getZoom, setCenter],
  )

  const relayout = useCallback(() => {
    setNodes((nodes) => layoutNodes(nodes, getEdges()))
    void fitView(FIT)
  }, [setNodes, getEdges, fitView])
  const fit = useCallback(() => void fitView(FIT), [fitView])

  const onNodeClick = useCallback<NodeMouseHandler<CanvasNode>>((_, node) => select(node.id), [select])
  const onPaneClick = useCallback(() => select(undefined), [select])
  // Keyboard selection (Tab to a node, Enter) goes through React Flow's selection.
  const onSelectionChange = useCallback<OnSelectionChangeFunc<CanvasNode, CanvasEdge>>(
    ({ nodes }) => {
      if (nodes.length === 1 && useWorkflowStore.getState().selected !== nodes[0].id) select(nodes[0].id)
    },
    [select],
  )

  return (
    <ReactFlow<CanvasNode, CanvasEdge>
      defaultNodes={laid.nodes}
      defaultEdges={laid.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      colorMode={mode}
      fitView
      fitViewOptions={FIT}
      minZoom={0.05}
      maxZoom={2}
      onlyRenderVisibleElements={laid.nodes.length > VISIBLE_ONLY_ABOVE}
      nodesConnectable={false}
      edgesReconnectable={false}
      deleteKeyCode={null}
      onNodeClick={onNodeClick}
      onPaneClick={onPaneClick}
      onSelectionChange={onSelectionChange}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={20} />
      <Controls showFitView={false} showInteractive={false} />
      {laid.nodes.length > MINIMAP_ABOVE && <MiniMap<CanvasNode> nodeColor={miniMapColor} pannable zoomable />}
      <CanvasToolbar onRelayout={relayout} onFit={fit} />
    </ReactFlow>
  )
}
