//! A graph edge: drawn along its laid-out route around the nodes (edgePath.ts), kind-specific
//! stroke (set by toFlow), a label on hover or selection (always for then/else and a router's
//! routes), raised above the nodes while hovered or selected, a dash animation while its target
//! step runs, and the critical path's colour with the cost and time overlay on — both read from
//! the run store here, so run progress never rebuilds the edge list. The theme may thicken it
//! (high contrast).
import Box from '@mui/material/Box'
import { useTheme } from '@mui/material/styles'
import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from '@xyflow/react'
import { memo, useState } from 'react'
import { useRunStore } from '../state/runStore'
import { CRITICAL_COLOR } from './criticalPath'
import { edgePath } from './edgePath'
import type { CanvasEdge } from './flowTypes'
import RaisedEdge from './RaisedEdge'
import { edgeLabel } from './toFlow'
import { useCriticalLink } from './useStepOverlay'
import { isActive } from './useStepRun'

function FlowEdge(props: EdgeProps<CanvasEdge>) {
  const { id, source, target, data, style, markerEnd, selected } = props
  const [path, labelX, labelY] = edgePath(props, data?.route)
  const flowing = useRunStore((s) => isActive(s.steps[target]?.status))
  const critical = useCriticalLink(source, target)
  const [hovered, setHovered] = useState(false)
  const showLabel = data !== undefined && (data.alwaysShowLabel || hovered || selected)
  const edgeScale = useTheme().canvas?.edgeScale ?? 1
  const scaled = edgeScale === 1 || typeof style?.strokeWidth !== 'number' ? style : { ...style, strokeWidth: style.strokeWidth * edgeScale }
  const marked = critical ? { ...scaled, stroke: CRITICAL_COLOR, strokeWidth: 3 * edgeScale } : scaled
  const drawn = flowing ? { ...marked, strokeDasharray: '6 4', animation: 'dashdraw 0.5s linear infinite' } : marked
  return (
    <>
      <g onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)}>
        <BaseEdge
          id={id}
          path={path}
          style={drawn}
          markerEnd={markerEnd}
          data-kind={data?.kind}
          data-flowing={flowing ? 'true' : undefined}
          data-critical={critical ? 'true' : undefined}
        />
      </g>
      {(hovered || selected) && <RaisedEdge id={id} path={path} style={drawn} markerEnd={markerEnd} />}
      {showLabel && (
        <EdgeLabelRenderer>
          <Box
            className="nodrag nopan"
            data-testid={`edge-label-${id}`}
            sx={{
              position: 'absolute',
              transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`,
              pointerEvents: 'none',
              px: 0.5,
              borderRadius: 0.75,
              bgcolor: 'background.paper',
              border: 1,
              borderColor: 'divider',
              color: style?.stroke ?? 'text.secondary',
              fontSize: 10,
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              whiteSpace: 'nowrap',
              // Above a raised edge (RaisedEdge.tsx).
              zIndex: 1002,
            }}
          >
            {edgeLabel(data)}
          </Box>
        </EdgeLabelRenderer>
      )}
    </>
  )
}

export default memo(FlowEdge)
