//! A copy of an edge drawn above the nodes, while it is hovered or selected: edges are drawn
//! under the nodes, so one that passes behind a node (after a node was moved onto it) would
//! otherwise look cut, or like another connection. Drawn in React Flow's label layer, which
//! lies over the nodes and moves with the viewport; it takes no pointer events.
import { EdgeLabelRenderer } from '@xyflow/react'
import type { CSSProperties } from 'react'

/** Over the nodes (a selected node is raised to 1000) and under the edge labels. */
const RAISED_Z = 1001

export default function RaisedEdge({ id, path, style, markerEnd }: { id: string; path: string; style?: CSSProperties; markerEnd?: string }) {
  return (
    <EdgeLabelRenderer>
      <svg
        data-testid={`edge-raised-${id}`}
        aria-hidden
        style={{ position: 'absolute', left: 0, top: 0, width: 1, height: 1, overflow: 'visible', pointerEvents: 'none', zIndex: RAISED_Z }}
      >
        <path d={path} fill="none" style={style} markerEnd={markerEnd} />
      </svg>
    </EdgeLabelRenderer>
  )
}
