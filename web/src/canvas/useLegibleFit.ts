//! Fit view that keeps titles legible (legibleFit.ts) on the canvas as it is now, 1.5× larger in
//! presenter mode, for both canvases: the read-only one and the builder's.
import { useReactFlow, useStore, useStoreApi, type Edge, type Node, type ReactFlowState } from '@xyflow/react'
import { useCallback } from 'react'
import { useApp } from '../app/AppContext'
import { PRESENTER_SCALE } from '../shell/presenter'
import type { FlowEdgeData } from './flowTypes'
import type { Box } from './geometry'
import type { LayoutView } from './layout'
import { fitView, legibleViewport } from './legibleFit'

/** How long a fit animates (ms); the first fit of a graph does not. */
export const FIT_MS = 250

/** Every node has been measured (and there is one): a fit can size them. */
const allMeasured = (s: ReactFlowState) => {
  for (const node of s.nodeLookup.values()) if (!node.measured.width) return false
  return s.nodeLookup.size > 0
}

/** Whether the canvas has a size and its nodes have theirs, so that a fit means something. */
export function useFitReady(): boolean {
  return useStore((s) => s.width > 0 && s.height > 0 && allMeasured(s))
}

/** The view to lay out and fit for: the canvas as it is now, at the presenter's scale if on. */
export function useCanvasView(): () => LayoutView {
  const store = useStoreApi()
  const { presenter } = useApp().stores
  return useCallback(() => {
    // Measured now rather than read from the store: presenter mode has just resized the canvas
    // and React Flow's resize observer has not reported it yet.
    const { domNode, width, height } = store.getState()
    const rect = domNode?.getBoundingClientRect()
    return fitView(rect?.width || width, rect?.height || height, presenter.getState().on ? PRESENTER_SCALE : 1)
  }, [store, presenter])
}

/** The corners of the routed edges: they may run round the graph's sides. */
function reachOf(edges: Edge[]): Box[] {
  const out: Box[] = []
  for (const edge of edges) for (const p of (edge.data as FlowEdgeData | undefined)?.route?.points ?? []) out.push({ ...p, width: 0, height: 0 })
  return out
}

/** `fit(nodes?, duration?, edges?)`: the nodes and edges given, or those React Flow has. */
export function useLegibleFit(): (nodes?: Node[], duration?: number, edges?: Edge[]) => void {
  const store = useStoreApi()
  const { getNodes, getEdges, setViewport } = useReactFlow()
  const viewNow = useCanvasView()
  const { presenter } = useApp().stores
  return useCallback(
    (nodes = getNodes(), duration = FIT_MS, edges = getEdges()) => {
      const { nodeLookup } = store.getState()
      const view = viewNow()
      // The sizes React Flow measured (a controlled node's own object may not carry them).
      const boxOf = (node: Node): Box => {
        const measured = nodeLookup.get(node.id)?.measured
        return {
          ...node.position,
          width: measured?.width ?? node.measured?.width ?? node.width ?? 0,
          height: measured?.height ?? node.measured?.height ?? node.height ?? 0,
        }
      }
      const scale = presenter.getState().on ? PRESENTER_SCALE : 1
      void setViewport(legibleViewport(nodes.map(boxOf), view.width, view.height, { scale, reach: reachOf(edges) }), { duration })
    },
    [store, getNodes, getEdges, setViewport, viewNow, presenter],
  )
}
