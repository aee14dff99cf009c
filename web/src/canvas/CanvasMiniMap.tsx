//! The minimap, sized to the canvas it sits on (miniMapSize.ts): hidden when the canvas is small.
import { MiniMap, useStore, type Node } from '@xyflow/react'
import { MINIMAP_DIMENSIONS, miniMapSize } from './miniMapSize'

export default function CanvasMiniMap<N extends Node>({ nodeColor }: { nodeColor: (node: N) => string }) {
  // A size class, so the minimap re-renders only when it changes, not on every resize.
  const size = useStore((s) => miniMapSize(s.width, s.height))
  if (size === 'hidden') return null
  return <MiniMap<N> nodeColor={nodeColor} pannable zoomable style={MINIMAP_DIMENSIONS[size]} data-testid="minimap" />
}
