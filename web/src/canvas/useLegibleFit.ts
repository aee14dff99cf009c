//! Fit view that keeps titles legible (legibleFit.ts) on the canvas as it is now, 1.5× larger in
//! presenter mode: the read-only canvas fits this way always, the builder's in presenter mode.
import { useReactFlow, useStore, useStoreApi, type Node, type ReactFlowState } from '@xyflow/react'
import { useCallback } from 'react'
import { PRESENTER_SCALE, usePresenterStore } from '../shell/presenter'
import { legibleViewport, type Box } from './legibleFit'

/** How long a fit animates (ms); the first fit of a graph does not. */
export const FIT_MS = 250

/** The builder's own fit (outside presenter mode): the whole workflow, however small. */
export const WHOLE_FIT = { padding: 0.15, maxZoom: 1.25, duration: FIT_MS }

/** Every node has been measured (and there is one): a fit can size them. */
const allMeasured = (s: ReactFlowState) => {
  for (const node of s.nodeLookup.values()) if (!node.measured.width) return false
  return s.nodeLookup.size > 0
}

/** Whether the canvas has a size and its nodes have theirs, so that a fit means something. */
export function useFitReady(): boolean {
  return useStore((s) => s.width > 0 && s.height > 0 && allMeasured(s))
}

/** `fit(nodes?, duration?)`: the nodes given, or those React Flow has. */
export function useLegibleFit(): (nodes?: Node[], duration?: number) => void {
  const store = useStoreApi()
  const { getNodes, setViewport } = useReactFlow()
  return useCallback(
    (nodes = getNodes(), duration = FIT_MS) => {
      // Measured now rather than read from the store: presenter mode has just resized the canvas
      // and React Flow's resize observer has not reported it yet.
      const { domNode, width, height, nodeLookup } = store.getState()
      const rect = domNode?.getBoundingClientRect()
      const scale = usePresenterStore.getState().on ? PRESENTER_SCALE : 1
      // The sizes React Flow measured (a controlled node's own object may not carry them).
      const boxOf = (node: Node): Box => {
        const measured = nodeLookup.get(node.id)?.measured
        return {
          ...node.position,
          width: measured?.width ?? node.measured?.width ?? node.width ?? 0,
          height: measured?.height ?? node.measured?.height ?? node.height ?? 0,
        }
      }
      void setViewport(legibleViewport(nodes.map(boxOf), rect?.width || width, rect?.height || height, { scale }), { duration })
    },
    [store, getNodes, setViewport],
  )
}
